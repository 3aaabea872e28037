import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { type Call, connect, fileBug, integrationsTestbed, json, setStatus } from './helpers'

// The testbed builds its env in beforeEach after starting the fake, so a getter hands it the fake's URL.
const bed = integrationsTestbed({
  env: {
    get GLITCHBOX_PROVIDER_URL_NOTION() {
      return bed.fake.url
    },
  },
})
const SECRET = 'ntn_1234567890abcdefghijklmnopqrstuvwxyzABCDEF'
const DB = '8e2c1f0a-4b7d-4e3a-9c51-2f6d8a0b1c3e'
const PAGE = '1a2b3c4d-0000-4000-8000-00000000000'
const options = (...names: string[]) => ({ options: names.map((name, i) => ({ id: `o${i}`, name, color: 'default' })) })
const PROPERTIES: Record<string, Record<string, unknown>> = {
  Bug: { id: 'title', name: 'Bug', type: 'title', title: {} },
  Status: { id: 's', name: 'Status', type: 'status', status: { ...options('Not started', 'In progress', 'Done', 'Shipped'), groups: [] } },
  priority: { id: 'p', name: 'priority', type: 'select', select: options('Critical', 'High', 'Medium', 'Low') },
  Category: { id: 'c', name: 'Category', type: 'multi_select', multi_select: options('Gameplay', 'Audio') },
  'Game version': { id: 'g', name: 'Game version', type: 'rich_text', rich_text: {} },
  'Report Number': { id: 'n', name: 'Report Number', type: 'number', number: { format: 'number' } },
  Link: { id: 'l', name: 'Link', type: 'url', url: {} },
  Description: { id: 'd', name: 'Description', type: 'rich_text', rich_text: {} },
  Platform: { id: 'pl', name: 'Platform', type: 'select', select: options('PC') },
  Assignee: { id: 'a', name: 'Assignee', type: 'people', people: {} },
  Created: { id: 'ct', name: 'Created', type: 'created_time', created_time: {} },
}
const notionError = (status: number, code: string, message: string) => json(status, { object: 'error', status, code, message, request_id: 'req-1' })

/** Notion's API (2022-06-28) as the fake answers it, refusing unknown properties and status options as Notion does. */
function notionFake(c: Call) {
  if (c.headers.get('authorization') !== `Bearer ${SECRET}`) return notionError(401, 'unauthorized', 'API token is invalid.')
  if (c.headers.get('notion-version') !== '2022-06-28') return notionError(400, 'missing_version', 'Notion-Version header failed validation')
  if (c.method === 'POST' && c.path === '/v1/search') {
    if (c.json.filter?.value !== 'database') return notionError(400, 'validation_error', 'expected a database filter')
    const db = (id: string, title: string) => ({ object: 'database', id, title: [{ type: 'text', plain_text: title, text: { content: title } }], properties: {} })
    if (!c.json.start_cursor) return json(200, { object: 'list', results: [db(DB, 'Bug tracker'), db('d2', '')], has_more: true, next_cursor: 'cursor-2' })
    return json(200, { object: 'list', results: [db('d3', 'Roadmap')], has_more: false, next_cursor: null })
  }
  if (c.method === 'GET' && c.path.startsWith('/v1/databases/')) {
    if (c.path !== `/v1/databases/${DB}`) return notionError(404, 'object_not_found', `Could not find database with ID: ${c.path.slice(14)}. Make sure the relevant pages and databases are shared with your integration.`)
    return json(200, { object: 'database', id: DB, title: [{ type: 'text', plain_text: 'Bug tracker' }], properties: PROPERTIES })
  }
  if ((c.method === 'POST' && c.path === '/v1/pages') || (c.method === 'PATCH' && c.path.startsWith('/v1/pages/'))) {
    for (const [name, value] of Object.entries(c.json.properties as Record<string, { status?: { name: string } }>)) {
      const p = PROPERTIES[name]
      if (!p) return notionError(400, 'validation_error', `${name} is not a property that exists.`)
      if (value.status && !(p.status as { options: { name: string }[] }).options.some((o) => o.name === value.status!.name)) return notionError(400, 'validation_error', `Invalid status option. Status option "${value.status.name}" does not exist".`)
    }
    const id = c.method === 'POST' ? `${PAGE}${notionCalls('POST').length}` : c.path.slice(10)
    return json(200, { object: 'page', id, url: `https://www.notion.so/Bug-${id.replaceAll('-', '')}`, properties: {} })
  }
  return notionError(400, 'invalid_request_url', 'Invalid request URL.')
}
const notionCalls = (method: string) => bed.fake.calls.filter((c) => c.method === method && c.path.startsWith('/v1/pages'))

describe('notion', () => {
  it('lists the databases shared with the integration page by page; 502 with Notion\'s message for a bad secret', async () => {
    bed.fake.answer = notionFake
    const ok = await bed.t.request('POST', `${bed.base}/notion/targets`, { token: bed.owner.token, body: { secret: SECRET } })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toEqual([
      { id: DB, name: 'Bug tracker' },
      { id: 'd2', name: 'Untitled' },
      { id: 'd3', name: 'Roadmap' },
    ])
    expect(bed.fake.calls.map((c) => c.json)).toEqual([
      { filter: { property: 'object', value: 'database' }, page_size: 100 },
      { filter: { property: 'object', value: 'database' }, page_size: 100, start_cursor: 'cursor-2' },
    ])
    const bad = await bed.t.request('POST', `${bed.base}/notion/targets`, { token: bed.owner.token, body: { secret: 'secret_not_the_right_one_000' } })
    expect(bad.status).toBe(502)
    expect(bad.body.error).toBe('Notion answered 401: API token is invalid.')
  })

  it('validates the config naming the field; test reads the database and names the matching properties', async () => {
    bed.fake.answer = notionFake
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ secret: SECRET, config: {} }, /config\.database_id is required/],
      [{ secret: SECRET, config: { database_id: 'Bug tracker' } }, /config\.database_id must be a database id/],
      [{ secret: SECRET, config: { database_id: DB, status_map: 'Done' } }, /config\.status_map must be an object/],
      [{ secret: 'ntn_short', config: { database_id: DB } }, /secret must be a Notion internal integration secret/],
    ]
    for (const [body, error] of cases) {
      const res = await bed.t.request('POST', `${bed.base}/notion`, { token: bed.owner.token, body })
      expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(error)])
    }
    const id = await connect(bed, 'notion', { secret: SECRET, config: { database_id: DB } })
    const test = await bed.t.request('POST', `${bed.base}/notion/${id}/test`, { token: bed.owner.token })
    expect(test.body.data.message).toBe('Notion accepted the secret; pages go to the database Bug tracker filling Status, priority, Category, Game version, Report Number, Link, Description, Platform')
    const unshared = await connect(bed, 'notion', { secret: SECRET, config: { database_id: '00000000000040008000000000000000' } })
    const refused = await bed.t.request('POST', `${bed.base}/notion/${unshared}/test`, { token: bed.owner.token })
    expect(refused.status).toBe(502)
    expect(refused.body.error).toMatch(/^Notion answered 404: Could not find database with ID: 00000000000040008000000000000000\. Make sure/)
  })

  it('files new reports as pages with the matching properties by type, and moves the Status (status_map overriding)', async () => {
    bed.fake.answer = notionFake
    await connect(bed, 'notion', { secret: SECRET, min_priority: 'high', config: { database_id: DB, status_map: { resolved: 'Shipped' } } })
    const long = 'Steps: '.padEnd(4500, 'x')
    await fileBug(bed, { title: 'Softlock in chapter 2', description: long, priority: 'high', category: 'gameplay', platform: 'Switch', game_version: '1.2.0' })
    await fileBug(bed, { title: 'Minor typo', priority: 'medium' })
    await bed.t.runner.drain()
    const creates = notionCalls('POST')
    expect(creates).toHaveLength(1)
    expect(creates[0]!.headers.get('authorization')).toBe(`Bearer ${SECRET}`)
    const { Description, ...props } = creates[0]!.json.properties
    expect(creates[0]!.json.parent).toEqual({ database_id: DB })
    // Platform has no "Switch" option, Assignee and Created match none of our names: left alone.
    expect(props).toEqual({
      Bug: { title: [{ type: 'text', text: { content: 'Softlock in chapter 2 (#1)' } }] },
      Status: { status: { name: 'Not started' } },
      priority: { select: { name: 'High' } },
      Category: { multi_select: [{ name: 'Gameplay' }] },
      'Game version': { rich_text: [{ type: 'text', text: { content: '1.2.0' } }] },
      'Report Number': { number: 1 },
      Link: { url: `http://glitchbox.test/projects/${bed.project.slug}/reports/1` },
    })
    const pieces = Description.rich_text as { text: { content: string } }[]
    expect(pieces.length).toBe(3)
    expect(pieces.every((p) => p.text.content.length <= 2000)).toBe(true)
    expect(pieces.map((p) => p.text.content).join('')).toContain(`${long}\n\n- **priority**: high`)

    const issues = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/1/issues`, { token: bed.owner.token })
    expect(issues.body.data.links).toMatchObject([{ provider: 'notion', external_id: `${PAGE}1`, url: `https://www.notion.so/Bug-${`${PAGE}1`.replaceAll('-', '')}`, state: 'Not started' }])

    for (const status of ['in_progress', 'resolved', 'closed']) {
      await setStatus(bed, 1, status)
      await bed.t.runner.drain()
    }
    await setStatus(bed, 2, 'resolved')
    await bed.t.runner.drain()
    expect(notionCalls('PATCH').map((c) => [c.path, c.json])).toEqual([
      [`/v1/pages/${PAGE}1`, { properties: { Status: { status: { name: 'In progress' } } } }],
      [`/v1/pages/${PAGE}1`, { properties: { Status: { status: { name: 'Shipped' } } } }],
      [`/v1/pages/${PAGE}1`, { properties: { Status: { status: { name: 'Done' } } } }],
    ])
    const after = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/1/issues`, { token: bed.owner.token })
    expect(after.body.data.links[0].state).toBe('Done')
  })

  it('records Notion\'s refusals on deliveries: an option the Status lacks, a revoked secret', async () => {
    bed.fake.answer = notionFake
    const id = await connect(bed, 'notion', { secret: SECRET, config: { database_id: DB, status_map: { wont_fix: 'Rejected' } } })
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    await setStatus(bed, 1, 'wont_fix')
    await bed.t.runner.drain()
    bed.fake.answer = () => notionError(401, 'unauthorized', 'API token is invalid.')
    await fileBug(bed, { title: 'Another crash', priority: 'high' })
    await bed.t.runner.drain()
    const deliveries = (await bed.t.request('GET', `${bed.base}/notion/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(deliveries.map((d: { action: string; status: string; attempts: { error: string }[] }) => [d.action, d.status, d.attempts[0]!.error])).toEqual([
      ['file', 'pending', 'Notion answered 401: API token is invalid.'],
      ['move', 'pending', 'Notion property Status has no option named Rejected'],
      ['file', 'succeeded', null],
    ])
    expect(notionCalls('PATCH')).toHaveLength(0)
  })

  it('POST /bugs/{number}/issues files the report once and answers 502 with Notion\'s refusal', async () => {
    bed.fake.answer = notionFake
    const id = await connect(bed, 'notion', { secret: SECRET, event_types: ['bug_updated'], config: { database_id: DB } })
    await fileBug(bed, { title: 'Shader crash', priority: 'medium' })
    await bed.t.runner.drain()
    expect(notionCalls('POST')).toHaveLength(0)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    const first = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ integration_id: id, provider: 'notion', external_id: `${PAGE}1`, title: 'Shader crash (#1)', state: 'Not started' })
    const again = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect([again.status, again.body.data]).toEqual([200, first.body.data])
    expect(notionCalls('POST')).toHaveLength(1)

    await fileBug(bed, { title: 'Another', priority: 'medium' })
    bed.fake.answer = (c) => (c.method === 'POST' && c.path === '/v1/pages' ? notionError(403, 'restricted_resource', 'Insufficient permissions for this endpoint.') : notionFake(c))
    const refused = await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs/2/issues`, { token: bed.owner.token, body: { integration_id: id } })
    expect([refused.status, refused.body.error]).toEqual([502, 'Notion answered 403: Insufficient permissions for this endpoint.'])
  })

  it('retries a refused filing after 1 minute, holding it while the connection is paused', async () => {
    const id = await connect(bed, 'notion', { secret: SECRET, config: { database_id: DB } })
    bed.fake.answer = () => notionError(503, 'service_unavailable', 'Notion is unavailable, try again later.')
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/notion/${id}`, { token: bed.owner.token, body: { is_active: false } })
    bed.fake.answer = notionFake
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/notion/${id}`, { token: bed.owner.token, body: { is_active: true } })
    await bed.t.runner.drain()
    const [d] = (await bed.t.request('GET', `${bed.base}/notion/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ action: 'file', status: 'succeeded', attempt_count: 2 })
    expect(d.attempts[0].error).toBe('Notion answered 503: Notion is unavailable, try again later.')
  })
})
