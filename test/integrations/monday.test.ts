import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { type Call, connect, fileBug, integrationsTestbed, json, setStatus } from './helpers'

// The testbed builds its env in beforeEach after starting the fake, so a getter hands it the fake's URL.
const bed = integrationsTestbed({
  env: {
    get GLITCHBOX_PROVIDER_URL_MONDAY() {
      return bed.fake.url
    },
  },
})
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJ0aWQiOjEyMzQ1Njc4OX0.signature0123'
const BOARD = '1234567890'
const settings = (labels: Record<string, string>) => JSON.stringify({ labels, labels_colors: {} })
const COLUMNS = [
  { id: 'name', title: 'Name', type: 'name', settings_str: '{}' },
  { id: 'status', title: 'Status', type: 'status', settings_str: settings({ '0': 'Working on it', '1': 'Done', '2': 'Stuck', '5': 'Open', '7': 'Verified' }) },
  { id: 'priority_1', title: 'priority', type: 'status', settings_str: settings({ '0': 'Critical ⚠️', '1': 'High', '2': 'Medium', '3': 'Low' }) },
  { id: 'text_game', title: 'Game version', type: 'text', settings_str: '{}' },
  { id: 'link_1', title: 'Link', type: 'link', settings_str: '{}' },
  { id: 'long_text', title: 'Description', type: 'long_text', settings_str: '{}' },
  { id: 'numbers', title: 'Report number', type: 'numbers', settings_str: '{}' },
  { id: 'person', title: 'Owner', type: 'people', settings_str: '{}' },
  { id: 'dropdown', title: 'Platform', type: 'dropdown', settings_str: '{}' },
  { id: 'text_notes', title: 'Notes', type: 'text', settings_str: '{}' },
]
const labels = (columnId: string) => Object.values(JSON.parse(COLUMNS.find((c) => c.id === columnId)!.settings_str).labels as Record<string, string>)
const labelError = (path: string) => json(200, { data: { [path]: null }, errors: [{ message: 'invalid value - label does not exist in column. Please check our API documentation for the correct data structure for this column.', path: [path], extensions: { code: 'ColumnValueException', status_code: 200, error_data: { column_type: 'status' } } }] })

/** monday's GraphQL API v2 as the fake answers it, rejecting labels a status column lacks as monday does. */
function mondayFake(c: Call) {
  if (c.path !== '/v2' || c.method !== 'POST') return json(404, { error_message: 'Not found', status_code: 404 })
  if (c.headers.get('authorization') !== TOKEN) return json(401, { errors: [{ message: 'Not Authenticated', extensions: { code: 'UNAUTHENTICATED', status_code: 401 } }] })
  const q: string = c.json.query
  const v = c.json.variables
  if (q.includes('create_item')) {
    const values = JSON.parse(v.values) as Record<string, { label?: string }>
    for (const [id, value] of Object.entries(values)) if (value?.label !== undefined && !labels(id).includes(value.label)) return labelError('create_item')
    const n = mondayCalls('create_item').length
    return json(200, { data: { create_item: { id: `98765${n}`, name: v.name, url: `https://studio.monday.com/boards/${v.board}/pulses/98765${n}` } }, extensions: { request_id: 'r1' } })
  }
  if (q.includes('change_column_value')) {
    const value = JSON.parse(v.value) as { label: string }
    if (!labels(v.column).includes(value.label)) return labelError('change_column_value')
    return json(200, { data: { change_column_value: { id: v.item } } })
  }
  if (q.includes('boards(ids')) return json(200, { data: { boards: v.ids[0] === BOARD ? [{ id: BOARD, name: 'Bugs', columns: COLUMNS }] : [] } })
  if (q.includes('boards(limit')) {
    if (v.page === 1) {
      const boards = Array.from({ length: 99 }, (_, i) => ({ id: String(1000 + i), name: `Board ${i}`, type: 'board', workspace: i === 0 ? null : { name: 'Game team' } }))
      return json(200, { data: { boards: [...boards, { id: '5555', name: 'Subitems of Board 0', type: 'sub_items_board', workspace: null }] } })
    }
    return json(200, { data: { boards: [{ id: BOARD, name: 'Bugs', type: 'board', workspace: { name: 'Game team' } }] } })
  }
  return json(200, { errors: [{ message: 'unexpected query' }] })
}
const mondayCalls = (op: string) => bed.fake.calls.filter((c) => String(c.json?.query ?? '').includes(op))

describe('monday', () => {
  it('lists boards page by page from a pasted token (no subitem boards); 502 with monday\'s message for a bad token', async () => {
    bed.fake.answer = mondayFake
    const ok = await bed.t.request('POST', `${bed.base}/monday/targets`, { token: bed.owner.token, body: { secret: TOKEN } })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toHaveLength(100)
    expect(ok.body.data[0]).toEqual({ id: '1000', name: 'Board 0', group: 'Main workspace' })
    expect(ok.body.data[99]).toEqual({ id: BOARD, name: 'Bugs', group: 'Game team' })
    expect(bed.fake.calls.map((c) => [c.headers.get('authorization'), c.headers.get('api-version'), c.json.variables.page])).toEqual([
      [TOKEN, '2024-10', 1],
      [TOKEN, '2024-10', 2],
    ])
    const bad = await bed.t.request('POST', `${bed.base}/monday/targets`, { token: bed.owner.token, body: { secret: 'wrong-token-0000000000000' } })
    expect(bad.status).toBe(502)
    expect(bad.body.error).toBe('monday.com answered 401: Not Authenticated')
  })

  it('validates the config naming the field; test reads the board and names the matching columns', async () => {
    bed.fake.answer = mondayFake
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ secret: TOKEN, config: {} }, /config\.board_id is required/],
      [{ secret: TOKEN, config: { board_id: 'Bugs' } }, /config\.board_id must be a board id/],
      [{ secret: TOKEN, config: { board_id: BOARD, status_map: { open: '' } } }, /config\.status_map\.open must be a state name/],
      [{ secret: 'tiny', config: { board_id: BOARD } }, /secret must be a monday\.com API token/],
    ]
    for (const [body, error] of cases) {
      const res = await bed.t.request('POST', `${bed.base}/monday`, { token: bed.owner.token, body })
      expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(error)])
    }
    const id = await connect(bed, 'monday', { secret: TOKEN, config: { board_id: Number(BOARD) } })
    const list = await bed.t.request('GET', bed.base, { token: bed.owner.token })
    expect(list.body.data[0].config.board_id).toBe(BOARD)
    const test = await bed.t.request('POST', `${bed.base}/monday/${id}/test`, { token: bed.owner.token })
    expect(test.body.data.message).toBe('monday.com accepted the token; items go to the board Bugs filling Status, priority, Game version, Link, Description, Report number, Platform')
    const other = await connect(bed, 'monday', { secret: TOKEN, config: { board_id: '42' } })
    const refused = await bed.t.request('POST', `${bed.base}/monday/${other}/test`, { token: bed.owner.token })
    expect([refused.status, refused.body.error]).toEqual([502, 'monday.com has no board 42 that the token can read'])
  })

  it('files new reports with the matching column values and changes the status column (status_map overriding)', async () => {
    bed.fake.answer = mondayFake
    await connect(bed, 'monday', { secret: TOKEN, min_priority: 'high', config: { board_id: BOARD, status_map: { resolved: 'Verified' } } })
    await fileBug(bed, { title: 'Softlock in chapter 2', priority: 'critical', platform: 'Switch', game_version: '1.2.0' })
    await fileBug(bed, { title: 'Minor typo', priority: 'low' })
    await bed.t.runner.drain()
    const [create] = mondayCalls('create_item')
    expect(mondayCalls('create_item')).toHaveLength(1)
    expect(create!.json.variables).toMatchObject({ board: BOARD, name: 'Softlock in chapter 2 (#1)' })
    const { long_text, ...values } = JSON.parse(create!.json.variables.values)
    // Owner and Notes match none of our names, Platform is a dropdown: left alone.
    expect(values).toEqual({
      status: { label: 'Open' },
      priority_1: { label: 'Critical ⚠️' },
      text_game: '1.2.0',
      link_1: { url: `http://glitchbox.test/projects/${bed.project.slug}/reports/1`, text: 'Glitchbox report' },
      numbers: '1',
    })
    expect(long_text.text).toContain('- **platform**: Switch')
    const issues = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/1/issues`, { token: bed.owner.token })
    expect(issues.body.data.links).toMatchObject([{ provider: 'monday', provider_name: 'monday.com', external_id: '987651', url: `https://studio.monday.com/boards/${BOARD}/pulses/987651`, state: 'Open' }])

    for (const status of ['in_progress', 'resolved', 'closed']) {
      await setStatus(bed, 1, status)
      await bed.t.runner.drain()
    }
    await setStatus(bed, 2, 'resolved')
    await bed.t.runner.drain()
    expect(mondayCalls('change_column_value').map((c) => c.json.variables)).toEqual([
      { board: BOARD, item: '987651', column: 'status', value: '{"label":"Working on it"}' },
      { board: BOARD, item: '987651', column: 'status', value: '{"label":"Verified"}' },
      { board: BOARD, item: '987651', column: 'status', value: '{"label":"Done"}' },
    ])
    const after = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/1/issues`, { token: bed.owner.token })
    expect(after.body.data.links[0].state).toBe('Done')
  })

  it('records monday\'s refusals on deliveries: a missing label, a revoked token', async () => {
    bed.fake.answer = mondayFake
    const id = await connect(bed, 'monday', { secret: TOKEN, config: { board_id: BOARD, status_map: { wont_fix: 'Rejected' } } })
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    await setStatus(bed, 1, 'wont_fix')
    await bed.t.runner.drain()
    bed.fake.answer = () => json(401, { errors: [{ message: 'Not Authenticated', extensions: { code: 'UNAUTHENTICATED', status_code: 401 } }] })
    await fileBug(bed, { title: 'Another crash', priority: 'high' })
    await bed.t.runner.drain()
    const deliveries = (await bed.t.request('GET', `${bed.base}/monday/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(deliveries.map((d: { action: string; status: string; attempts: { error: string }[] }) => [d.action, d.status, d.attempts[0]!.error])).toEqual([
      ['file', 'pending', 'monday.com answered 401: Not Authenticated'],
      ['move', 'pending', 'monday.com column Status has no label named Rejected'],
      ['file', 'succeeded', null],
    ])
    expect(mondayCalls('change_column_value')).toHaveLength(0)
  })

  it('POST /bugs/{number}/issues files the report once and answers 502 with monday\'s refusal', async () => {
    bed.fake.answer = mondayFake
    const id = await connect(bed, 'monday', { secret: TOKEN, event_types: ['bug_updated'], config: { board_id: BOARD } })
    await fileBug(bed, { title: 'Shader crash', priority: 'medium' })
    await bed.t.runner.drain()
    expect(mondayCalls('create_item')).toHaveLength(0)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    const first = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ integration_id: id, provider: 'monday', external_id: '987651', title: 'Shader crash (#1)', state: 'Open' })
    const again = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect([again.status, again.body.data]).toEqual([200, first.body.data])
    expect(mondayCalls('create_item')).toHaveLength(1)

    await fileBug(bed, { title: 'Another', priority: 'medium' })
    bed.fake.answer = (c) => (String(c.json?.query).includes('create_item') ? json(200, { data: { create_item: null }, errors: [{ message: 'User unauthorized to perform action', extensions: { code: 'UserUnauthorizedException', status_code: 403 } }] }) : mondayFake(c))
    const refused = await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs/2/issues`, { token: bed.owner.token, body: { integration_id: id } })
    expect([refused.status, refused.body.error]).toEqual([502, 'monday.com answered: User unauthorized to perform action'])
  })

  it('retries a refused filing after 1 minute, holding it while the connection is paused', async () => {
    const id = await connect(bed, 'monday', { secret: TOKEN, config: { board_id: BOARD } })
    bed.fake.answer = () => json(500, { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', status_code: 500 } }] })
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/monday/${id}`, { token: bed.owner.token, body: { is_active: false } })
    bed.fake.answer = mondayFake
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/monday/${id}`, { token: bed.owner.token, body: { is_active: true } })
    await bed.t.runner.drain()
    const [d] = (await bed.t.request('GET', `${bed.base}/monday/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ action: 'file', status: 'succeeded', attempt_count: 2 })
    expect(d.attempts[0].error).toBe('monday.com answered 500: Internal server error')
  })
})
