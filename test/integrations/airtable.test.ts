import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { type Call, connect, fileBug, integrationsTestbed, json, setStatus } from './helpers'

// The testbed builds its env in beforeEach after starting the fake, so a getter hands it the fake's URL.
const bed = integrationsTestbed({
  env: {
    get GLITCHBOX_PROVIDER_URL_AIRTABLE() {
      return bed.fake.url
    },
  },
})
const PAT = 'patAbCdEfGhIjKlMn.0123456789abcdef0123456789abcdef'
const BASE = 'appA1b2C3d4E5f6G7'
const TABLE = 'tblH8i9J0k1L2m3N4'
const OTHER_BASE = 'appZ9y8X7w6V5u4T3'

const choices = (...names: string[]) => ({ choices: names.map((name, i) => ({ id: `sel${i}`, name, color: 'blueLight2' })) })
const FIELDS = [
  { id: 'fld1', name: 'Name', type: 'singleLineText' },
  { id: 'fld2', name: 'Status', type: 'singleSelect', options: choices('Todo', 'In progress', 'Fixed', 'Done', "Won't fix") },
  { id: 'fld3', name: 'PRIORITY', type: 'singleSelect', options: choices('Critical', 'High', 'Medium', 'Low') },
  { id: 'fld4', name: 'Game Version', type: 'singleLineText' },
  { id: 'fld5', name: 'Report number', type: 'number', options: { precision: 0 } },
  { id: 'fld6', name: 'Link', type: 'url' },
  { id: 'fld7', name: 'Description', type: 'singleLineText' },
  { id: 'fld8', name: 'platform', type: 'multipleSelects', options: choices('PC', 'Switch') },
  { id: 'fld9', name: 'Notes', type: 'multilineText' },
  { id: 'fld10', name: 'Assignee', type: 'singleCollaborator' },
  { id: 'fld11', name: 'Category', type: 'singleSelect', options: choices('Audio') },
]
const SCHEMA = { tables: [{ id: TABLE, name: 'Bugs', primaryFieldId: 'fld1', fields: FIELDS, views: [] }, { id: 'tblOther000000000', name: 'Ideas', primaryFieldId: 'f', fields: [], views: [] }] }

/** Airtable's Web API and meta API as the fake answers them, rejecting unknown fields and choices as Airtable does. */
function airtableFake(c: Call) {
  if (c.headers.get('authorization') !== `Bearer ${PAT}`) return json(401, { error: { type: 'AUTHENTICATION_REQUIRED', message: 'Authentication required' } })
  if (c.method === 'GET' && c.path === '/v0/meta/bases') return json(200, { bases: [{ id: BASE, name: 'Studio', permissionLevel: 'create' }], offset: 'itrPage2' })
  if (c.method === 'GET' && c.path === '/v0/meta/bases?offset=itrPage2') return json(200, { bases: [{ id: OTHER_BASE, name: 'Marketing', permissionLevel: 'read' }] })
  if (c.method === 'GET' && c.path === `/v0/meta/bases/${BASE}/tables`) return json(200, SCHEMA)
  if (c.method === 'GET' && c.path === `/v0/meta/bases/${OTHER_BASE}/tables`) return json(200, { tables: [{ id: 'tblPosts000000000', name: 'Posts', primaryFieldId: 'x', fields: [], views: [] }] })
  const record = c.path.match(new RegExp(`^/v0/${BASE}/${TABLE}(?:/(rec\\w+))?$`))
  if (record && (c.method === 'POST' || c.method === 'PATCH')) {
    for (const [name, value] of Object.entries(c.json.fields as Record<string, unknown>)) {
      const f = FIELDS.find((x) => x.name === name)
      if (!f) return json(422, { error: { type: 'UNKNOWN_FIELD_NAME', message: `Unknown field name: "${name}"` } })
      const names = f.options && 'choices' in f.options ? f.options.choices.map((x) => x.name) : null
      if (names && [value].flat().some((v) => !names.includes(String(v)))) return json(422, { error: { type: 'INVALID_MULTIPLE_CHOICE_OPTIONS', message: `Insufficient permissions to create new select option ""${value}""` } })
    }
    const id = record[1] ?? `rec${String(airtableCalls('POST').length).padStart(14, '0')}`
    return json(200, { id, createdTime: '2026-11-23T10:00:00.000Z', fields: c.json.fields })
  }
  return json(404, { error: 'NOT_FOUND' })
}
const airtableCalls = (method: string) => bed.fake.calls.filter((c) => c.method === method && c.path.startsWith(`/v0/${BASE}/`))

describe('airtable', () => {
  it('lists the tables of every base from a pasted token; 502 with Airtable\'s message for a bad token', async () => {
    bed.fake.answer = airtableFake
    const ok = await bed.t.request('POST', `${bed.base}/airtable/targets`, { token: bed.owner.token, body: { secret: PAT } })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toEqual([
      { id: `${BASE}/${TABLE}`, name: 'Bugs', group: 'Studio' },
      { id: `${BASE}/tblOther000000000`, name: 'Ideas', group: 'Studio' },
      { id: `${OTHER_BASE}/tblPosts000000000`, name: 'Posts', group: 'Marketing' },
    ])
    const bad = await bed.t.request('POST', `${bed.base}/airtable/targets`, { token: bed.owner.token, body: { secret: 'patWrongWrongWrong.0000000000' } })
    expect(bad.status).toBe(502)
    expect(bad.body.error).toBe('Airtable answered 401: Authentication required')
  })

  it('validates the connection\'s config, naming the field; test reads the table and names the matching fields', async () => {
    bed.fake.answer = airtableFake
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ secret: PAT, config: {} }, /config\.table is required/],
      [{ secret: PAT, config: { table: 'Bugs' } }, /config\.table must be <appId>\/<tableId>/],
      [{ secret: PAT, config: { table: `${BASE}/${TABLE}`, status_map: { done: 'Done' } } }, /config\.status_map: done is not a status/],
      [{ secret: 'short', config: { table: `${BASE}/${TABLE}` } }, /secret must be an Airtable personal access token/],
    ]
    for (const [body, error] of cases) {
      const res = await bed.t.request('POST', `${bed.base}/airtable`, { token: bed.owner.token, body })
      expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(error)])
    }
    const id = await connect(bed, 'airtable', { secret: PAT, config: { table: `${BASE}/${TABLE}` } })
    const test = await bed.t.request('POST', `${bed.base}/airtable/${id}/test`, { token: bed.owner.token })
    expect(test.status).toBe(200)
    expect(test.body.data.message).toBe('Airtable accepted the token; records go to the table Bugs filling Status, PRIORITY, Game Version, Report number, Link, Description, platform, Category')
    const missing = await connect(bed, 'airtable', { secret: PAT, config: { table: `${BASE}/tblMissing0000000` } })
    const refused = await bed.t.request('POST', `${bed.base}/airtable/${missing}/test`, { token: bed.owner.token })
    expect(refused.status).toBe(502)
    expect(refused.body.error).toBe(`Airtable has no table tblMissing0000000 in base ${BASE} that the token can read`)
  })

  it('files new reports filling only the matching fields, and moves the Status field (status_map overriding)', async () => {
    bed.fake.answer = airtableFake
    await connect(bed, 'airtable', { secret: PAT, min_priority: 'high', config: { table: `${BASE}/${TABLE}`, status_map: { resolved: 'Fixed' } } })
    await fileBug(bed, { title: 'Softlock in chapter 2', priority: 'critical', platform: 'Switch', game_version: '1.2.0', category: 'gameplay' })
    await fileBug(bed, { title: 'Minor typo', priority: 'low' })
    await bed.t.runner.drain()
    const creates = airtableCalls('POST')
    expect(creates).toHaveLength(1)
    expect(creates[0]!.path).toBe(`/v0/${BASE}/${TABLE}`)
    expect(creates[0]!.headers.get('authorization')).toBe(`Bearer ${PAT}`)
    const { Description, ...fields } = creates[0]!.json.fields
    // Category has no "gameplay" choice, Notes and Assignee match none of our names: left alone.
    expect(fields).toEqual({
      Name: 'Softlock in chapter 2 (#1)',
      Status: 'Todo',
      PRIORITY: 'Critical',
      'Game Version': '1.2.0',
      'Report number': 1,
      Link: `http://glitchbox.test/projects/${bed.project.slug}/reports/1`,
      platform: ['Switch'],
    })
    // A single line text field gets the description's Markdown on one line.
    expect(Description).toMatch(/^It broke - \*\*priority\*\*: critical - \*\*status\*\*: open .* - \*\*platform\*\*: Switch .*\[Open report #1 in Glitchbox\]/)
    expect(Description).not.toContain('\n')

    const issues = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/1/issues`, { token: bed.owner.token })
    expect(issues.body.data.links).toMatchObject([{ provider: 'airtable', external_id: 'rec00000000000001', url: `https://airtable.com/${BASE}/${TABLE}/rec00000000000001`, state: 'Todo' }])

    for (const status of ['in_progress', 'resolved', 'wont_fix']) {
      await setStatus(bed, 1, status)
      await bed.t.runner.drain()
    }
    await setStatus(bed, 2, 'resolved')
    await bed.t.runner.drain()
    expect(airtableCalls('PATCH').map((c) => [c.path, c.json])).toEqual([
      [`/v0/${BASE}/${TABLE}/rec00000000000001`, { fields: { Status: 'In progress' } }],
      [`/v0/${BASE}/${TABLE}/rec00000000000001`, { fields: { Status: 'Fixed' } }],
      [`/v0/${BASE}/${TABLE}/rec00000000000001`, { fields: { Status: "Won't fix" } }],
    ])
    const after = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/1/issues`, { token: bed.owner.token })
    expect(after.body.data.links[0].state).toBe("Won't fix")
  })

  it('a status map naming a missing choice fails the move with the reason; a revoked token fails deliveries with Airtable\'s words', async () => {
    bed.fake.answer = airtableFake
    const id = await connect(bed, 'airtable', { secret: PAT, config: { table: `${BASE}/${TABLE}`, status_map: { closed: 'Archived' } } })
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    await setStatus(bed, 1, 'closed')
    await bed.t.runner.drain()
    expect(airtableCalls('PATCH')).toHaveLength(0)
    bed.fake.answer = () => json(401, { error: { type: 'AUTHENTICATION_REQUIRED', message: 'Authentication required' } })
    await fileBug(bed, { title: 'Another crash', priority: 'high' })
    await bed.t.runner.drain()
    const deliveries = (await bed.t.request('GET', `${bed.base}/airtable/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(deliveries.map((d: { action: string; attempts: { error: string }[] }) => [d.action, d.attempts[0]!.error])).toEqual([
      ['file', 'Airtable answered 401: Authentication required'],
      ['move', 'Airtable field Status has no choice named Archived'],
      ['file', null],
    ])
  })

  it('POST /bugs/{number}/issues files the report once and answers 502 with Airtable\'s refusal', async () => {
    bed.fake.answer = airtableFake
    const id = await connect(bed, 'airtable', { secret: PAT, event_types: ['bug_updated'], config: { table: `${BASE}/${TABLE}` } })
    await fileBug(bed, { title: 'Shader crash', priority: 'medium' })
    await bed.t.runner.drain()
    expect(airtableCalls('POST')).toHaveLength(0)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    const first = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ integration_id: id, provider: 'airtable', external_id: 'rec00000000000001', title: 'Shader crash (#1)', state: 'Todo' })
    const again = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect([again.status, again.body.data]).toEqual([200, first.body.data])
    expect(airtableCalls('POST')).toHaveLength(1)

    await fileBug(bed, { title: 'Another', priority: 'medium' })
    bed.fake.answer = (c) => (c.method === 'POST' ? json(403, { error: { type: 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND', message: 'Invalid permissions, or the requested model was not found.' } }) : airtableFake(c))
    const refused = await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs/2/issues`, { token: bed.owner.token, body: { integration_id: id } })
    expect(refused.status).toBe(502)
    expect(refused.body.error).toBe('Airtable answered 403: Invalid permissions, or the requested model was not found.')
  })

  it('retries a refused filing after 1 minute, holding it while the connection is paused', async () => {
    const id = await connect(bed, 'airtable', { secret: PAT, config: { table: `${BASE}/${TABLE}` } })
    bed.fake.answer = () => json(503, { error: { type: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable. Try again later.' } })
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/airtable/${id}`, { token: bed.owner.token, body: { is_active: false } })
    bed.fake.answer = airtableFake
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/airtable/${id}`, { token: bed.owner.token, body: { is_active: true } })
    await bed.t.runner.drain()
    const [d] = (await bed.t.request('GET', `${bed.base}/airtable/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ action: 'file', status: 'succeeded', attempt_count: 2 })
    expect(d.attempts[0].error).toBe('Airtable answered 503: The service is temporarily unavailable. Try again later.')
  })
})
