import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { type Call, connect, fileBug, json, setStatus } from './helpers'
import { trackerTestbed } from './tracker-bed'

const bed = trackerTestbed('clickup')
const TOKEN = 'pk_8675309_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345'
const LIST = '901200345678'
const STATUSES = [
  { id: 's1', status: 'to do', type: 'open', orderindex: 0 },
  { id: 's2', status: 'in progress', type: 'custom', orderindex: 1 },
  { id: 's3', status: 'qa', type: 'custom', orderindex: 2 },
  { id: 's4', status: 'complete', type: 'closed', orderindex: 3 },
]

/** ClickUp API v2 as the fake answers it. */
function clickupFake(c: Call) {
  if (c.headers.get('authorization') !== TOKEN) return json(401, { err: 'Token invalid', ECODE: 'OAUTH_025' })
  const path = c.path.split('?')[0]!
  if (c.method === 'GET' && path === '/team') return json(200, { teams: [{ id: '1001', name: 'Studio' }] })
  if (c.method === 'GET' && path === '/team/1001/space') return json(200, { spaces: [{ id: '2001', name: 'Game' }, { id: '2002', name: 'Ops' }] })
  if (c.method === 'GET' && path === '/space/2001/folder') return json(200, { folders: [{ id: '3001', name: 'Sprint', lists: [{ id: '901200345679', name: 'Sprint 12' }] }] })
  if (c.method === 'GET' && path === '/space/2001/list') return json(200, { lists: [{ id: LIST, name: 'Bugs' }] })
  if (c.method === 'GET' && path === '/space/2002/folder') return json(200, { folders: [] })
  if (c.method === 'GET' && path === '/space/2002/list') return json(200, { lists: [{ id: '901200345680', name: 'Incidents' }] })
  if (c.method === 'GET' && path === `/list/${LIST}`) return json(200, { id: LIST, name: 'Bugs', statuses: STATUSES })
  if (c.method === 'POST' && path === `/list/${LIST}/task`) {
    const n = clickupCalls('POST').length
    return json(200, { id: `86a${n}`, name: c.json.name, status: { status: 'to do', type: 'open' }, url: `https://app.clickup.com/t/86a${n}` })
  }
  if (c.method === 'PUT' && path.startsWith('/task/')) {
    const s = STATUSES.find((x) => x.status === c.json.status)
    if (!s) return json(400, { err: 'Status does not exist', ECODE: 'ITEM_114' })
    return json(200, { id: path.slice(6), status: { status: s.status, type: s.type } })
  }
  return json(404, { err: 'Route not found', ECODE: 'APP_001' })
}
const clickupCalls = (method: string) => bed.fake.calls.filter((c) => c.method === method)

describe('clickup', () => {
  it('validates the connection with 400 naming the field; lists teams → spaces → lists as targets; 502 with ClickUp\'s answer', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ secret: TOKEN, config: {} }, /config\.list_id is required/],
      [{ secret: TOKEN, config: { list_id: 'abc' } }, /config\.list_id must be a ClickUp list id/],
      [{ secret: TOKEN, config: { list_id: LIST, status_map: { resolved: '' } } }, /config\.status_map\.resolved must be a state name/],
      [{ secret: 'pk_1', config: { list_id: LIST } }, /secret must be a ClickUp API token/],
    ]
    for (const [body, error] of cases) {
      const res = await bed.t.request('POST', `${bed.base}/clickup`, { token: bed.owner.token, body })
      expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(error)])
    }
    bed.fake.answer = clickupFake
    const ok = await bed.t.request('POST', `${bed.base}/clickup/targets`, { token: bed.owner.token, body: { secret: TOKEN } })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toEqual([
      { id: LIST, name: 'Bugs', group: 'Studio / Game' },
      { id: '901200345679', name: 'Sprint 12', group: 'Studio / Game / Sprint' },
      { id: '901200345680', name: 'Incidents', group: 'Studio / Ops' },
    ])
    expect(bed.fake.calls[1]!.path).toBe('/team/1001/space?archived=false')
    expect(bed.fake.calls[0]!.headers.get('user-agent')).toBe('Glitchbox/0.0.0-test')
    const bad = await bed.t.request('POST', `${bed.base}/clickup/targets`, { token: bed.owner.token, body: { secret: 'pk_wrong_0000000000' } })
    expect([bad.status, bad.body.error]).toEqual([502, 'ClickUp answered 401: Token invalid (OAUTH_025)'])

    const id = await connect(bed, 'clickup', { secret: TOKEN, config: { list_id: LIST } })
    expect((await bed.t.request('POST', `${bed.base}/clickup/${id}/test`, { token: bed.owner.token })).body.data.message).toBe('ClickUp accepted the token; tasks go to the list Bugs')
    const gone = await connect(bed, 'clickup', { secret: TOKEN, config: { list_id: '1' } })
    const test = await bed.t.request('POST', `${bed.base}/clickup/${gone}/test`, { token: bed.owner.token })
    expect([test.status, test.body.error]).toEqual([502, 'ClickUp answered 404: Route not found (APP_001)'])
  })

  it('files new reports at or above min_priority as tasks and sets their status (status_map overriding the defaults)', async () => {
    bed.fake.answer = clickupFake
    await connect(bed, 'clickup', { secret: TOKEN, min_priority: 'high', config: { list_id: LIST, status_map: { resolved: 'QA' } } })
    await fileBug(bed, { title: 'Crash when saving', priority: 'high', platform: 'Steam Deck' })
    await fileBug(bed, { title: 'Minor', priority: 'medium' })
    await bed.t.runner.drain()
    const creates = clickupCalls('POST')
    expect(creates).toHaveLength(1)
    expect(creates[0]!.path).toBe(`/list/${LIST}/task`)
    expect(creates[0]!.json).toMatchObject({ name: 'Crash when saving (#1)', priority: 2 })
    expect(creates[0]!.json.markdown_content).toContain('- **platform**: Steam Deck')
    expect(creates[0]!.json.markdown_content).toContain(`http://glitchbox.test/projects/${bed.project.slug}/reports/1`)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    expect((await bed.t.request('GET', path, { token: bed.owner.token })).body.data.links).toMatchObject([{ provider: 'clickup', external_id: '86a1', url: 'https://app.clickup.com/t/86a1', state: 'to do' }])

    for (const s of ['in_progress', 'resolved', 'closed', 'open']) {
      await setStatus(bed, 1, s)
      await bed.t.runner.drain()
    }
    expect(clickupCalls('PUT').map((c) => [c.path, c.json.status])).toEqual([
      ['/task/86a1', 'in progress'],
      ['/task/86a1', 'qa'],
      ['/task/86a1', 'complete'],
      ['/task/86a1', 'to do'],
    ])
    expect((await bed.t.request('GET', path, { token: bed.owner.token })).body.data.links[0].state).toBe('to do')
  })

  it('POST /bugs/{number}/issues files once and answers 502 with ClickUp\'s refusal; a missing status fails the move with retries', async () => {
    bed.fake.answer = clickupFake
    const id = await connect(bed, 'clickup', { secret: TOKEN, event_types: ['bug_updated'], config: { list_id: LIST, status_map: { wont_fix: 'rejected' } } })
    await fileBug(bed, { title: 'Flicker', priority: 'critical' })
    await bed.t.runner.drain()
    expect(clickupCalls('POST')).toHaveLength(0)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    const first = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ provider: 'clickup', external_id: '86a1' })
    expect(clickupCalls('POST')[0]!.json.priority).toBe(1)
    const again = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect([again.status, again.body.data]).toEqual([200, first.body.data])
    expect(clickupCalls('POST')).toHaveLength(1)

    await setStatus(bed, 1, 'wont_fix')
    await bed.t.runner.drain()
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    const [move] = (await bed.t.request('GET', `${bed.base}/clickup/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(move).toMatchObject({ action: 'move', status: 'pending', attempt_count: 2, last_error: 'ClickUp has no status named rejected in the list' })
    expect(clickupCalls('PUT')).toHaveLength(0)

    await fileBug(bed, { title: 'Other', priority: 'low' })
    bed.fake.answer = (c) => (c.method === 'POST' ? json(400, { err: 'Task name invalid', ECODE: 'INPUT_005' }) : clickupFake(c))
    const refused = await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs/2/issues`, { token: bed.owner.token, body: { integration_id: id } })
    expect([refused.status, refused.body.error]).toEqual([502, 'ClickUp answered 400: Task name invalid (INPUT_005)'])
  })

  it('retries a refused filing after 1 minute, holding it while the connection is paused', async () => {
    const id = await connect(bed, 'clickup', { secret: TOKEN, config: { list_id: LIST } })
    bed.fake.answer = () => json(429, { err: 'Rate limit reached', ECODE: 'APP_002' })
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/clickup/${id}`, { token: bed.owner.token, body: { is_active: false } })
    bed.fake.answer = clickupFake
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/clickup/${id}`, { token: bed.owner.token, body: { is_active: true } })
    await bed.t.runner.drain()
    const [d] = (await bed.t.request('GET', `${bed.base}/clickup/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ action: 'file', status: 'succeeded', attempt_count: 2 })
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([429, 200])
    expect(d.attempts[0].error).toBe('ClickUp answered 429: Rate limit reached (APP_002)')
  })
})
