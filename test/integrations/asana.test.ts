import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { type Call, connect, fileBug, json, setStatus } from './helpers'
import { trackerTestbed } from './tracker-bed'

const bed = trackerTestbed('asana')
const TOKEN = '2/1204567890123456/1209876543210987:0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d'
const PROJECT = '1209000000000001'
const HELP = 'For more information on API status codes and how to handle them, read the docs on errors: https://developers.asana.com/docs/errors'

/** Asana's REST API as the fake answers it (data envelopes, errors arrays). */
function asanaFake(c: Call) {
  if (c.headers.get('authorization') !== `Bearer ${TOKEN}`) return json(401, { errors: [{ message: 'Not Authorized', help: HELP }] })
  const path = c.path.split('?')[0]!
  if (c.method === 'GET' && path === '/workspaces') return json(200, { data: [{ gid: '100', name: 'Studio', resource_type: 'workspace' }] })
  if (c.method === 'GET' && path === '/projects')
    return c.path.includes('offset=eyJ0eXAi')
      ? json(200, { data: [{ gid: '1209000000000002', name: 'Roadmap' }], next_page: null })
      : json(200, { data: [{ gid: PROJECT, name: 'Bug triage' }], next_page: { offset: 'eyJ0eXAi', path: '/projects?offset=eyJ0eXAi', uri: 'https://app.asana.com/api/1.0/projects?offset=eyJ0eXAi' } })
  if (c.method === 'GET' && path === `/projects/${PROJECT}`) return json(200, { data: { gid: PROJECT, name: 'Bug triage' } })
  if (c.method === 'GET' && path === `/projects/${PROJECT}/sections`) return json(200, { data: [{ gid: '300', name: 'Inbox' }, { gid: '301', name: 'Doing' }, { gid: '302', name: 'Verified' }] })
  if (c.method === 'POST' && path === '/tasks') {
    if (!c.json?.data?.name) return json(400, { errors: [{ message: 'name: Missing input', help: HELP }] })
    const n = asanaCalls('POST', '/tasks').length
    return json(201, { data: { gid: `120950000000000${n}`, name: c.json.data.name, completed: false, permalink_url: `https://app.asana.com/1/100/project/${PROJECT}/task/120950000000000${n}` } })
  }
  if (c.method === 'POST' && /^\/sections\/\d+\/addTask$/.test(path)) return json(200, { data: {} })
  if (c.method === 'PUT' && path.startsWith('/tasks/')) return json(200, { data: { gid: path.slice(7), completed: c.json.data.completed } })
  return json(404, { errors: [{ message: 'project: Unknown object: 1', help: HELP }] })
}
const asanaCalls = (method: string, path: string) => bed.fake.calls.filter((c) => c.method === method && c.path.split('?')[0] === path)

describe('asana', () => {
  it('validates the connection with 400 naming the field; lists workspaces → projects as targets; 502 with Asana\'s answer', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ secret: TOKEN, config: {} }, /config\.project_gid is required/],
      [{ secret: TOKEN, config: { project_gid: 'Bug triage' } }, /config\.project_gid must be an Asana project gid/],
      [{ secret: TOKEN, config: { project_gid: PROJECT, status_map: 'Done' } }, /config\.status_map must be an object/],
      [{ secret: 'short', config: { project_gid: PROJECT } }, /secret must be an Asana personal access token/],
    ]
    for (const [body, error] of cases) {
      const res = await bed.t.request('POST', `${bed.base}/asana`, { token: bed.owner.token, body })
      expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(error)])
    }
    bed.fake.answer = asanaFake
    const ok = await bed.t.request('POST', `${bed.base}/asana/targets`, { token: bed.owner.token, body: { secret: TOKEN } })
    expect(ok.body.data).toEqual([{ id: PROJECT, name: 'Bug triage', group: 'Studio' }, { id: '1209000000000002', name: 'Roadmap', group: 'Studio' }])
    expect(bed.fake.calls.map((c) => c.path)).toEqual(['/workspaces?limit=100', '/projects?workspace=100&archived=false&limit=100&opt_fields=name', '/projects?workspace=100&archived=false&limit=100&opt_fields=name&offset=eyJ0eXAi'])
    const bad = await bed.t.request('POST', `${bed.base}/asana/targets`, { token: bed.owner.token, body: { secret: '2/0000/0000:wrongwrongwrong' } })
    expect([bad.status, bad.body.error]).toEqual([502, 'Asana answered 401: Not Authorized'])

    const id = await connect(bed, 'asana', { secret: TOKEN, config: { project_gid: PROJECT } })
    expect((await bed.t.request('POST', `${bed.base}/asana/${id}/test`, { token: bed.owner.token })).body.data.message).toBe('Asana accepted the token; tasks go to the project Bug triage')
    const gone = await connect(bed, 'asana', { secret: TOKEN, config: { project_gid: '1' } })
    const test = await bed.t.request('POST', `${bed.base}/asana/${gone}/test`, { token: bed.owner.token })
    expect([test.status, test.body.error]).toEqual([502, 'Asana answered 404: project: Unknown object: 1'])
  })

  it('files new reports at or above min_priority as tasks; completes and reopens them, moving to the section status_map names', async () => {
    bed.fake.answer = asanaFake
    await connect(bed, 'asana', { secret: TOKEN, min_priority: 'medium', config: { project_gid: PROJECT, status_map: { in_progress: 'Doing', resolved: 'verified' } } })
    await fileBug(bed, { title: 'Save lost', priority: 'medium', game_version: '1.4.2' })
    await fileBug(bed, { title: 'Pixel off', priority: 'low' })
    await bed.t.runner.drain()
    const creates = asanaCalls('POST', '/tasks')
    expect(creates).toHaveLength(1)
    expect(creates[0]!.json.data).toMatchObject({ name: 'Save lost (#1)', projects: [PROJECT] })
    expect(creates[0]!.json.data.notes).toContain('- game_version: 1.4.2')
    expect(creates[0]!.json.data.notes).toContain(`Open report #1 in Glitchbox: http://glitchbox.test/projects/${bed.project.slug}/reports/1`)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    expect((await bed.t.request('GET', path, { token: bed.owner.token })).body.data.links).toMatchObject([{ provider: 'asana', external_id: '1209500000000001', url: `https://app.asana.com/1/100/project/${PROJECT}/task/1209500000000001`, state: 'incomplete' }])

    for (const s of ['in_progress', 'resolved', 'open', 'wont_fix']) {
      await setStatus(bed, 1, s)
      await bed.t.runner.drain()
    }
    expect(bed.fake.calls.filter((c) => c.path.includes('/addTask')).map((c) => [c.path, c.json.data.task])).toEqual([
      ['/sections/301/addTask', '1209500000000001'],
      ['/sections/302/addTask', '1209500000000001'],
    ])
    expect(bed.fake.calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.json.data.completed])).toEqual([
      ['/tasks/1209500000000001?opt_fields=completed', false],
      ['/tasks/1209500000000001?opt_fields=completed', true],
      ['/tasks/1209500000000001?opt_fields=completed', false],
      ['/tasks/1209500000000001?opt_fields=completed', true],
    ])
    expect((await bed.t.request('GET', path, { token: bed.owner.token })).body.data.links[0].state).toBe('completed')
  })

  it('POST /bugs/{number}/issues files once and answers 502 with Asana\'s refusal; a missing section fails the move', async () => {
    bed.fake.answer = asanaFake
    const id = await connect(bed, 'asana', { secret: TOKEN, event_types: ['bug_updated'], config: { project_gid: PROJECT, status_map: { closed: 'Archive' } } })
    await fileBug(bed, { title: 'Stutter', priority: 'high' })
    await bed.t.runner.drain()
    expect(asanaCalls('POST', '/tasks')).toHaveLength(0)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    const first = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ provider: 'asana', external_id: '1209500000000001', title: 'Stutter (#1)' })
    const again = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect([again.status, again.body.data]).toEqual([200, first.body.data])
    expect(asanaCalls('POST', '/tasks')).toHaveLength(1)

    await setStatus(bed, 1, 'closed')
    await bed.t.runner.drain()
    const [move] = (await bed.t.request('GET', `${bed.base}/asana/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(move).toMatchObject({ action: 'move', status: 'pending', last_error: 'Asana has no section named Archive in the project' })

    await fileBug(bed, { title: 'Other', priority: 'high' })
    bed.fake.answer = (c) => (c.method === 'POST' ? json(403, { errors: [{ message: 'You do not have permission to add tasks to this project', help: HELP }] }) : asanaFake(c))
    const refused = await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs/2/issues`, { token: bed.owner.token, body: { integration_id: id } })
    expect([refused.status, refused.body.error]).toEqual([502, 'Asana answered 403: You do not have permission to add tasks to this project'])
  })

  it('retries a refused filing after 1 minute, holding it while the connection is paused', async () => {
    const id = await connect(bed, 'asana', { secret: TOKEN, config: { project_gid: PROJECT } })
    bed.fake.answer = () => json(429, { errors: [{ message: 'You have made too many requests recently. Please, be chill.' }] })
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/asana/${id}`, { token: bed.owner.token, body: { is_active: false } })
    bed.fake.answer = asanaFake
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/asana/${id}`, { token: bed.owner.token, body: { is_active: true } })
    await bed.t.runner.drain()
    const [d] = (await bed.t.request('GET', `${bed.base}/asana/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ action: 'file', status: 'succeeded', attempt_count: 2 })
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([429, 201])
    expect(d.attempts[0].error).toBe('Asana answered 429: You have made too many requests recently. Please, be chill.')
  })
})
