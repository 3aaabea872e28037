import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { createProject, createUser } from '../helpers/fixtures'
import { type Call, connect, fileBug, json, setStatus } from './helpers'
import { trackerTestbed } from './tracker-bed'

const bed = trackerTestbed('jira')
const TOKEN = 'ATATT3xFfGF0T4nK1ngT0k3n0123456789'
const EMAIL = 'lead@studio.example'
const SITE = 'studio.atlassian.net'
const CONFIG = { site: SITE, email: EMAIL, project_id: '10000' }
const BASIC = `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`

const STATUS = {
  todo: { name: 'To Do', statusCategory: { key: 'new' } },
  doing: { name: 'In Progress', statusCategory: { key: 'indeterminate' } },
  review: { name: 'In Review', statusCategory: { key: 'indeterminate' } },
  done: { name: 'Done', statusCategory: { key: 'done' } },
  wontdo: { name: "Won't Do", statusCategory: { key: 'done' } },
}
type Key = keyof typeof STATUS
/** The fake's issues: their current status, moved by transitions. */
let issues: Record<string, Key> = {}
let priorityOnScreen = true
const TRANSITIONS: { id: string; name: string; to: Key }[] = [
  { id: '11', name: 'Back to do', to: 'todo' },
  { id: '21', name: 'Start', to: 'doing' },
  { id: '25', name: 'Review', to: 'review' },
  { id: '31', name: 'Finish', to: 'done' },
  { id: '41', name: 'Decline', to: 'wontdo' },
]

/** Jira Cloud REST v3 as the fake answers it (paths, basic auth, error bodies). */
function jiraFake(c: Call) {
  if (c.headers.get('authorization') !== BASIC) return new Response('Client must be authenticated to access this resource.', { status: 401, headers: { 'content-type': 'text/plain' } })
  const path = c.path.split('?')[0]!
  if (c.method === 'GET' && path === '/rest/api/3/project/search')
    return json(200, { startAt: 0, maxResults: 50, total: 2, isLast: true, values: [{ id: '10000', key: 'GAME', name: 'Game' }, { id: '10001', key: 'OPS', name: 'Live Ops' }] })
  if (c.method === 'GET' && path === '/rest/api/3/project/10000')
    return json(200, { id: '10000', key: 'GAME', name: 'Game', issueTypes: [{ id: '10003', name: 'Sub-task', subtask: true }, { id: '10001', name: 'Task', subtask: false }, { id: '10004', name: 'Bug', subtask: false }] })
  if (c.method === 'GET' && path.startsWith('/rest/api/3/project/')) return json(404, { errorMessages: ["No project could be found with key 'NOPE'."], errors: {} })
  if (c.method === 'POST' && path === '/rest/api/3/issue') {
    if (!priorityOnScreen && c.json.fields.priority) return json(400, { errorMessages: [], errors: { priority: "Field 'priority' cannot be set. It is not on the appropriate screen, or unknown." } })
    const key = `GAME-${Object.keys(issues).length + 1}`
    issues[key] = 'todo'
    return json(201, { id: String(10100 + Object.keys(issues).length), key, self: `https://${SITE}/rest/api/3/issue/${key}` })
  }
  const m = /^\/rest\/api\/3\/issue\/(GAME-\d+)(\/transitions)?$/.exec(path)
  if (m && issues[m[1]!]) {
    if (c.method === 'GET' && !m[2]) {
      const current = issues[m[1]!]!
      return json(200, { key: m[1], fields: { status: STATUS[current] }, transitions: TRANSITIONS.filter((t) => t.to !== current).map((t) => ({ id: t.id, name: t.name, to: STATUS[t.to] })) })
    }
    if (c.method === 'POST' && m[2]) {
      const t = TRANSITIONS.find((x) => x.id === c.json?.transition?.id)
      if (!t) return json(400, { errorMessages: ["Transition id '99' is not valid for this issue."], errors: {} })
      issues[m[1]!] = t.to
      return new Response(null, { status: 204 })
    }
  }
  return json(404, { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} })
}
const calls = (method: string, path: string) => bed.fake.calls.filter((c) => c.method === method && c.path.split('?')[0] === path)

describe('jira', () => {
  it('validates the connection (site, email, project, plan) with 400 naming the field', async () => {
    issues = {}
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ secret: TOKEN, config: { ...CONFIG, site: undefined } }, /config\.site is required/],
      [{ secret: TOKEN, config: { ...CONFIG, site: 'evil.example.com' } }, /config\.site must be your Jira Cloud host/],
      [{ secret: TOKEN, config: { ...CONFIG, site: 'studio.atlassian.net.evil.com' } }, /config\.site must be/],
      [{ secret: TOKEN, config: { ...CONFIG, email: 'nobody' } }, /config\.email must be/],
      [{ secret: TOKEN, config: { ...CONFIG, project_id: '' } }, /config\.project_id is required/],
      [{ secret: TOKEN, config: { ...CONFIG, status_map: { fixed: 'Done' } } }, /config\.status_map: fixed is not a status/],
      [{ secret: 'short', config: CONFIG }, /secret must be a Jira API token/],
    ]
    for (const [body, error] of cases) {
      const res = await bed.t.request('POST', `${bed.base}/jira`, { token: bed.owner.token, body })
      expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(error)])
    }
    const id = await connect(bed, 'jira', { secret: TOKEN, config: { ...CONFIG, site: 'https://Studio.atlassian.net/' } })
    const [saved] = (await bed.t.request('GET', `${bed.base}?provider=jira`, { token: bed.owner.token })).body.data
    expect(saved).toMatchObject({ id, provider: 'jira', config: CONFIG, secret_hint: expect.stringMatching(/^…/) })
    expect(JSON.stringify(saved)).not.toContain(TOKEN)

    // Jira needs tier 2.
    const free = await createUser(bed.t, { plan: 'free' })
    const freeProject = await createProject(bed.t, free)
    const refused = await bed.t.request('POST', `/api/projects/${freeProject.slug}/integrations/jira`, { token: free.token, body: { secret: TOKEN, config: CONFIG } })
    expect(refused.status).toBe(403)
    expect(bed.fake.calls).toHaveLength(0)
  })

  it('lists projects with the pasted token, site and email; 502 with Jira\'s answer when it refuses', async () => {
    bed.fake.answer = jiraFake
    const ok = await bed.t.request('POST', `${bed.base}/jira/targets`, { token: bed.owner.token, body: { secret: TOKEN, config: { site: SITE, email: EMAIL } } })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toEqual([{ id: '10000', name: 'Game', group: 'GAME' }, { id: '10001', name: 'Live Ops', group: 'OPS' }])
    const [call] = bed.fake.calls
    expect(call!.headers.get('authorization')).toBe(BASIC)
    expect(call!.headers.get('user-agent')).toBe('Glitchbox/0.0.0-test')
    expect(call!.path).toBe('/rest/api/3/project/search?startAt=0&maxResults=50&orderBy=name')

    const noSite = await bed.t.request('POST', `${bed.base}/jira/targets`, { token: bed.owner.token, body: { secret: TOKEN, config: { email: EMAIL } } })
    expect([noSite.status, noSite.body.error]).toEqual([400, 'config.site is required'])
    const bad = await bed.t.request('POST', `${bed.base}/jira/targets`, { token: bed.owner.token, body: { secret: 'ATATT-wrong-token-000000', config: { site: SITE, email: EMAIL } } })
    expect(bad.status).toBe(502)
    expect(bad.body.error).toBe('Jira answered 401: Client must be authenticated to access this resource.')

    const id = await connect(bed, 'jira', { secret: TOKEN, config: CONFIG })
    const saved = await bed.t.request('POST', `${bed.base}/jira/targets`, { token: bed.owner.token, body: { id } })
    expect(saved.body.data).toHaveLength(2)
    expect((await bed.t.request('POST', `${bed.base}/jira/${id}/test`, { token: bed.owner.token })).body.data.message).toBe('Jira accepted the token; issues go to the project Game (GAME)')
    const wrong = await connect(bed, 'jira', { secret: TOKEN, config: { ...CONFIG, project_id: 'NOPE' } })
    const test = await bed.t.request('POST', `${bed.base}/jira/${wrong}/test`, { token: bed.owner.token })
    expect([test.status, test.body.error]).toEqual([502, "Jira answered 404: No project could be found with key 'NOPE'."])
  })

  it('files new reports at or above min_priority as Bugs with an ADF description and moves them through transitions', async () => {
    issues = {}
    priorityOnScreen = true
    bed.fake.answer = jiraFake
    await connect(bed, 'jira', { secret: TOKEN, min_priority: 'medium', config: { ...CONFIG, status_map: { resolved: 'In Review' } } })
    await fileBug(bed, { title: 'Crash on boss fight', priority: 'critical', platform: 'PS5', description: 'Game freezes.\nThen crashes.\n\nEvery time.' })
    await fileBug(bed, { title: 'Typo in menu', priority: 'low' })
    await bed.t.runner.drain()
    const creates = calls('POST', '/rest/api/3/issue')
    expect(creates).toHaveLength(1)
    const fields = creates[0]!.json.fields
    expect(fields).toMatchObject({ project: { id: '10000' }, issuetype: { id: '10004' }, summary: 'Crash on boss fight (#1)', priority: { name: 'Highest' } })
    expect(fields.description.type).toBe('doc')
    expect(fields.description.version).toBe(1)
    const [p1, p2, list, link] = fields.description.content
    expect(p1).toEqual({ type: 'paragraph', content: [{ type: 'text', text: 'Game freezes.' }, { type: 'hardBreak' }, { type: 'text', text: 'Then crashes.' }] })
    expect(p2).toEqual({ type: 'paragraph', content: [{ type: 'text', text: 'Every time.' }] })
    expect(list.type).toBe('bulletList')
    expect(list.content).toContainEqual({ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'platform', marks: [{ type: 'strong' }] }, { type: 'text', text: ': PS5' }] }] })
    expect(link.content[0]).toEqual({ type: 'text', text: 'Open report #1 in Glitchbox', marks: [{ type: 'link', attrs: { href: `http://glitchbox.test/projects/${bed.project.slug}/reports/1` } }] })

    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    expect((await bed.t.request('GET', path, { token: bed.owner.token })).body.data.links).toMatchObject([{ provider: 'jira', external_id: 'GAME-1', url: `https://${SITE}/browse/GAME-1`, title: 'Crash on boss fight (#1)' }])

    await setStatus(bed, 1, 'in_progress')
    await bed.t.runner.drain()
    await setStatus(bed, 1, 'resolved')
    await bed.t.runner.drain()
    // closed maps to the done category by default; then reopening goes back to a "new" status.
    await setStatus(bed, 1, 'closed')
    await bed.t.runner.drain()
    await setStatus(bed, 1, 'open')
    await bed.t.runner.drain()
    await setStatus(bed, 1, 'wont_fix')
    await bed.t.runner.drain()
    expect(calls('POST', '/rest/api/3/issue/GAME-1/transitions').map((c) => c.json)).toEqual([
      { transition: { id: '21' } },
      { transition: { id: '25' } },
      { transition: { id: '31' } },
      { transition: { id: '11' } },
      { transition: { id: '41' } },
    ])
    expect(calls('GET', '/rest/api/3/issue/GAME-1')[0]!.path).toBe('/rest/api/3/issue/GAME-1?fields=status&expand=transitions')
    expect((await bed.t.request('GET', path, { token: bed.owner.token })).body.data.links[0].state).toBe("Won't Do")
    // Already in a done status: closing it moves nothing.
    await setStatus(bed, 1, 'closed')
    await bed.t.runner.drain()
    expect(calls('POST', '/rest/api/3/issue/GAME-1/transitions')).toHaveLength(5)
  })

  it('POST /bugs/{number}/issues files once, without the priority when the screen lacks it, and answers 502 with Jira\'s refusal', async () => {
    issues = {}
    priorityOnScreen = false
    bed.fake.answer = jiraFake
    const id = await connect(bed, 'jira', { secret: TOKEN, event_types: ['bug_updated'], config: { ...CONFIG, issue_type: 'task' } })
    await fileBug(bed, { title: 'Audio pops', priority: 'high' })
    await bed.t.runner.drain()
    expect(calls('POST', '/rest/api/3/issue')).toHaveLength(0)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    const first = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ integration_id: id, provider: 'jira', external_id: 'GAME-1', url: `https://${SITE}/browse/GAME-1` })
    const creates = calls('POST', '/rest/api/3/issue')
    expect(creates.map((c) => [c.json.fields.issuetype.id, c.json.fields.priority?.name ?? null])).toEqual([['10001', 'High'], ['10001', null]])
    const again = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect([again.status, again.body.data]).toEqual([200, first.body.data])
    expect(calls('POST', '/rest/api/3/issue')).toHaveLength(2)

    await fileBug(bed, { title: 'Another', priority: 'high' })
    bed.fake.answer = (c) => (c.method === 'POST' ? json(400, { errorMessages: [], errors: { summary: 'You must specify a summary of the issue.' } }) : jiraFake(c))
    const refused = await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs/2/issues`, { token: bed.owner.token, body: { integration_id: id } })
    expect([refused.status, refused.body.error]).toEqual([502, 'Jira answered 400: summary: You must specify a summary of the issue.'])
  })

  it('retries a refused filing after 1 minute and holds it while paused', async () => {
    issues = {}
    priorityOnScreen = true
    const id = await connect(bed, 'jira', { secret: TOKEN, config: CONFIG })
    bed.fake.answer = () => json(503, { errorMessages: ['Service Unavailable'] })
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/jira/${id}`, { token: bed.owner.token, body: { is_active: false } })
    bed.fake.answer = jiraFake
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/jira/${id}`, { token: bed.owner.token, body: { is_active: true } })
    await bed.t.runner.drain()
    const [d] = (await bed.t.request('GET', `${bed.base}/jira/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ action: 'file', status: 'succeeded', attempt_count: 2 })
    expect(d.attempts[0].error).toBe('Jira answered 503: Service Unavailable')
  })
})
