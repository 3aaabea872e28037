import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { PERMISSION_KEYS } from '../../src/modules/permissions/permissions.catalog'
import { addMember, type Call, connect, fileBug, integrationsTestbed, json, setStatus } from './helpers'

const bed = integrationsTestbed()
const KEY = 'lin_api_0123456789abcdefghijklmnop'
const TEAM = '9cfb482a-81e3-4154-b5b9-2c805e70a02d'
const STATES = [
  { id: 'st-todo', name: 'Todo', type: 'unstarted', position: 1 },
  { id: 'st-backlog', name: 'Backlog', type: 'backlog', position: 0 },
  { id: 'st-doing', name: 'In Progress', type: 'started', position: 2 },
  { id: 'st-done', name: 'Done', type: 'completed', position: 3 },
  { id: 'st-qa', name: 'QA Verified', type: 'completed', position: 4 },
  { id: 'st-cancel', name: 'Canceled', type: 'canceled', position: 5 },
]

/** Linear's GraphQL endpoint as the fake answers it. */
function linearFake(c: Call) {
  if (c.path !== '/graphql' || c.method !== 'POST') return json(404, { errors: [{ message: 'Not found' }] })
  if (c.headers.get('authorization') !== KEY)
    return json(400, { errors: [{ message: 'Authentication required, not authenticated', extensions: { type: 'authentication error', userPresentableMessage: 'You need to authenticate to access this operation.' } }] })
  const q: string = c.json.query
  if (q.includes('teams(')) return json(200, { data: { teams: { nodes: [{ id: TEAM, name: 'Game', key: 'GAME' }, { id: 'other', name: 'Web', key: 'WEB' }] } } })
  if (q.includes('issueCreate')) {
    const n = linearCalls('issueCreate').length
    return json(200, { data: { issueCreate: { success: true, issue: { id: `uuid-${n}`, identifier: `GAME-${n}`, url: `https://linear.app/studio/issue/GAME-${n}`, title: c.json.variables.input.title, state: { name: 'Todo' } } } } })
  }
  if (q.includes('issueUpdate')) return json(200, { data: { issueUpdate: { success: true } } })
  if (q.includes('states')) return json(200, { data: { team: { states: { nodes: STATES } } } })
  if (q.includes('team(')) return c.json.variables.id === TEAM ? json(200, { data: { team: { id: TEAM, name: 'Game' } } }) : json(200, { data: null, errors: [{ message: 'Entity not found: Team', extensions: { userPresentableMessage: 'Could not find referenced Team.' } }] })
  return json(400, { errors: [{ message: 'unexpected query' }] })
}
const linearCalls = (op: string) => bed.fake.calls.filter((c) => String(c.json?.query ?? '').includes(op))

describe('linear', () => {
  it('lists teams from a pasted key; 502 with Linear\'s message for a bad key', async () => {
    bed.fake.answer = linearFake
    const ok = await bed.t.request('POST', `${bed.base}/linear/targets`, { token: bed.owner.token, body: { secret: KEY } })
    expect(ok.body.data).toEqual([{ id: TEAM, name: 'Game', group: 'GAME' }, { id: 'other', name: 'Web', group: 'WEB' }])
    expect(bed.fake.calls[0]!.headers.get('authorization')).toBe(KEY)
    const bad = await bed.t.request('POST', `${bed.base}/linear/targets`, { token: bed.owner.token, body: { secret: 'lin_api_wrong_key_000000000000' } })
    expect(bad.status).toBe(502)
    expect(bad.body.error).toBe('Linear answered 400: Authentication required, not authenticated')

    const id = await connect(bed, 'linear', { secret: KEY, config: { team_id: 'missing-team' } })
    const test = await bed.t.request('POST', `${bed.base}/linear/${id}/test`, { token: bed.owner.token })
    expect(test.status).toBe(502)
    expect(test.body.error).toBe('Linear answered: Could not find referenced Team.')
    const bads = await bed.t.request('POST', `${bed.base}/linear`, { token: bed.owner.token, body: { secret: KEY, config: { team_id: TEAM, status_map: { done: 'Done' } } } })
    expect(bads.status).toBe(400)
    expect(bads.body.error).toMatch(/config\.status_map: done is not a status/)
  })

  it('files new reports at or above min_priority and moves the issue with the status (status_map overriding)', async () => {
    bed.fake.answer = linearFake
    const id = await connect(bed, 'linear', { secret: KEY, min_priority: 'high', config: { team_id: TEAM, status_map: { resolved: 'QA Verified' } } })
    await fileBug(bed, { title: 'Softlock in chapter 2', priority: 'critical', platform: 'Switch' })
    await fileBug(bed, { title: 'Minor typo', priority: 'low' })
    await bed.t.runner.drain()
    const [create] = linearCalls('issueCreate')
    expect(linearCalls('issueCreate')).toHaveLength(1)
    expect(create!.json.variables.input).toMatchObject({ teamId: TEAM, title: 'Softlock in chapter 2 (#1)', priority: 1 })
    expect(create!.json.variables.input.description).toContain('- **platform**: Switch')
    expect(create!.json.variables.input.description).toContain(`(http://glitchbox.test/projects/${bed.project.slug}/reports/1)`)

    const issues = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/1/issues`, { token: bed.owner.token })
    expect(issues.body.data.links).toMatchObject([{ integration_id: id, provider: 'linear', external_id: 'GAME-1', url: 'https://linear.app/studio/issue/GAME-1', state: 'Todo' }])
    expect(issues.body.data.trackers).toEqual([{ id, provider: 'linear', provider_name: 'Linear', name: 'Linear', target: TEAM }])

    await setStatus(bed, 1, 'in_progress')
    await bed.t.runner.drain()
    await setStatus(bed, 1, 'resolved')
    await bed.t.runner.drain()
    // Report 2 was never filed: its status change moves nothing.
    await setStatus(bed, 2, 'resolved')
    await bed.t.runner.drain()
    expect(linearCalls('issueUpdate').map((c) => [c.json.variables.id, c.json.variables.input.stateId])).toEqual([
      ['GAME-1', 'st-doing'],
      ['GAME-1', 'st-qa'],
    ])
    const after = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/1/issues`, { token: bed.owner.token })
    expect(after.body.data.links[0].state).toBe('QA Verified')
  })

  it('POST /bugs/{number}/issues files through a connection once, needs bugs.edit, and answers 502 with the refusal', async () => {
    bed.fake.answer = linearFake
    const id = await connect(bed, 'linear', { secret: KEY, event_types: ['bug_updated'], config: { team_id: TEAM } })
    const pd = await connect(bed, 'pagerduty', { secret: 'R0UT1NGKEY0123456789abcdefABCDEF', event_types: ['bug_updated'] })
    await fileBug(bed, { title: 'Shader crash', priority: 'medium' })
    await bed.t.runner.drain()
    expect(linearCalls('issueCreate')).toHaveLength(0)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`

    const member = await addMember(bed.t, bed.owner, { ...Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false])), 'bugs.view': true })
    expect((await bed.t.request('POST', path, { token: member.token, body: { integration_id: id } })).status).toBe(403)
    const cases: [unknown, number, RegExp | null][] = [
      [{}, 400, /integration_id is required/],
      [{ integration_id: 'nope' }, 404, /integration not found/],
      [{ integration_id: pd }, 400, /PagerDuty is not an issue tracker/],
    ]
    for (const [body, status, error] of cases) {
      const res = await bed.t.request('POST', path, { token: bed.owner.token, body })
      expect([status, res.status, res.body.error]).toEqual([status, status, expect.stringMatching(error!)])
    }
    const first = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ integration_id: id, provider: 'linear', external_id: 'GAME-1', url: 'https://linear.app/studio/issue/GAME-1' })
    const again = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect(again.status).toBe(200)
    expect(again.body.data).toEqual(first.body.data)
    expect(linearCalls('issueCreate')).toHaveLength(1)
    // A report filed by hand is moved like one filed on creation.
    await setStatus(bed, 1, 'wont_fix')
    await bed.t.runner.drain()
    expect(linearCalls('issueUpdate').map((c) => c.json.variables.input.stateId)).toEqual(['st-cancel'])

    await fileBug(bed, { title: 'Another', priority: 'medium' })
    bed.fake.answer = () => json(400, { errors: [{ message: 'Argument Validation Error', extensions: { userPresentableMessage: 'teamId must be a UUID.' } }] })
    const refused = await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs/2/issues`, { token: bed.owner.token, body: { integration_id: id } })
    expect(refused.status).toBe(502)
    expect(refused.body.error).toBe('Linear answered 400: Argument Validation Error')
  })

  it('retries a filing Linear refuses after 1 and 5 minutes', async () => {
    const id = await connect(bed, 'linear', { secret: KEY, config: { team_id: TEAM } })
    bed.fake.answer = (c) => (bed.fake.calls.length <= 2 ? json(503, { errors: [{ message: 'Service unavailable' }] }) : linearFake(c))
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(2)
    bed.t.clock.advance(5 * MINUTE)
    await bed.t.runner.drain()
    const [d] = (await bed.t.request('GET', `${bed.base}/linear/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ action: 'file', status: 'succeeded', attempt_count: 3 })
    expect(d.attempts[0].error).toBe('Linear answered 503: Service unavailable')
  })
})
