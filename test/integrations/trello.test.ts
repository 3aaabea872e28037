import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { type Call, connect, fileBug, json, setStatus } from './helpers'
import { trackerTestbed } from './tracker-bed'

const bed = trackerTestbed('trello')
const KEY = '0123456789abcdef0123456789abcdef'
const TOKEN = 'ATTAa1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9001AB23CD'
const BOARD = '64f0c1a2b3c4d5e6f7a8b9c0'
const INBOX = '64f0c1a2b3c4d5e6f7a8b9c1'
const LISTS = [
  { id: INBOX, name: 'Inbox' },
  { id: '64f0c1a2b3c4d5e6f7a8b9c2', name: 'Doing' },
  { id: '64f0c1a2b3c4d5e6f7a8b9c3', name: 'Done' },
]
const CONFIG = { api_key: KEY, list_id: INBOX }
const plain = (text: string, status: number) => new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } })

/** Trello's REST API as the fake answers it: key and token in the query, plain-text errors. */
function trelloFake(c: Call) {
  const u = new URL(`http://x${c.path}`)
  if (u.searchParams.get('key') !== KEY) return plain('invalid key', 401)
  if (u.searchParams.get('token') !== TOKEN) return plain('invalid token', 401)
  const path = u.pathname
  if (c.method === 'GET' && path === '/members/me/boards') return json(200, [{ id: BOARD, name: 'Game bugs', lists: LISTS }, { id: '64f0c1a2b3c4d5e6f7a8b9d0', name: 'Empty' }])
  if (c.method === 'GET' && path === `/lists/${INBOX}`) return json(200, { id: INBOX, name: 'Inbox' })
  if (c.method === 'POST' && path === '/cards') {
    if (!LISTS.some((l) => l.id === c.json.idList)) return plain('invalid value for idList', 400)
    const n = trelloCalls('POST', '/cards').length
    return json(200, { id: `65a00000000000000000000${n}`, name: c.json.name, idList: c.json.idList, idBoard: BOARD, closed: false, shortUrl: `https://trello.com/c/AbCd${n}`, url: `https://trello.com/c/AbCd${n}/1-card` })
  }
  if (c.method === 'GET' && /^\/cards\/\w+$/.test(path)) return json(200, { id: path.slice(7), idBoard: BOARD })
  if (c.method === 'GET' && path === `/boards/${BOARD}/lists`) return json(200, LISTS)
  if (c.method === 'PUT' && /^\/cards\/\w+$/.test(path)) return json(200, { id: path.slice(7), ...c.json })
  return plain('The requested resource was not found.', 404)
}
const trelloCalls = (method: string, path: string) => bed.fake.calls.filter((c) => c.method === method && c.path.split('?')[0] === path)

describe('trello', () => {
  it('validates the connection with 400 naming the field; lists boards → lists with key and token; 502 with Trello\'s answer', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ secret: TOKEN, config: { list_id: INBOX } }, /config\.api_key is required/],
      [{ secret: TOKEN, config: { ...CONFIG, api_key: 'nope' } }, /config\.api_key must be the 32-character API key/],
      [{ secret: TOKEN, config: { api_key: KEY } }, /config\.list_id is required/],
      [{ secret: TOKEN, config: { ...CONFIG, list_id: 'Inbox' } }, /config\.list_id must be a Trello list id/],
      [{ secret: 'short-token', config: CONFIG }, /secret must be a Trello user token/],
    ]
    for (const [body, error] of cases) {
      const res = await bed.t.request('POST', `${bed.base}/trello`, { token: bed.owner.token, body })
      expect([res.status, res.body.error]).toEqual([400, expect.stringMatching(error)])
    }
    bed.fake.answer = trelloFake
    const ok = await bed.t.request('POST', `${bed.base}/trello/targets`, { token: bed.owner.token, body: { secret: TOKEN, config: { api_key: KEY } } })
    expect(ok.body.data).toEqual(LISTS.map((l) => ({ ...l, group: 'Game bugs' })))
    expect(bed.fake.calls[0]!.path).toBe(`/members/me/boards?filter=open&fields=name&lists=open&key=${KEY}&token=${TOKEN}`)
    const noKey = await bed.t.request('POST', `${bed.base}/trello/targets`, { token: bed.owner.token, body: { secret: TOKEN } })
    expect([noKey.status, noKey.body.error]).toEqual([400, 'config.api_key is required'])
    const bad = await bed.t.request('POST', `${bed.base}/trello/targets`, { token: bed.owner.token, body: { secret: `${TOKEN}x`, config: { api_key: KEY } } })
    expect([bad.status, bad.body.error]).toEqual([502, 'Trello answered 401: invalid token'])

    const id = await connect(bed, 'trello', { secret: TOKEN, config: CONFIG })
    const [saved] = (await bed.t.request('GET', `${bed.base}?provider=trello`, { token: bed.owner.token })).body.data
    expect(saved.config).toEqual(CONFIG)
    expect(JSON.stringify(saved)).not.toContain(TOKEN)
    expect((await bed.t.request('POST', `${bed.base}/trello/targets`, { token: bed.owner.token, body: { id } })).body.data).toHaveLength(3)
    expect((await bed.t.request('POST', `${bed.base}/trello/${id}/test`, { token: bed.owner.token })).body.data.message).toBe('Trello accepted the token; cards go to the list Inbox')
    const gone = await connect(bed, 'trello', { secret: TOKEN, config: { ...CONFIG, list_id: 'ffffffffffffffffffffffff' } })
    const test = await bed.t.request('POST', `${bed.base}/trello/${gone}/test`, { token: bed.owner.token })
    expect([test.status, test.body.error]).toEqual([502, 'Trello answered 404: The requested resource was not found.'])
  })

  it('files new reports at or above min_priority as cards; moves them to the list status_map names, else archives when done and restores when reopened', async () => {
    bed.fake.answer = trelloFake
    await connect(bed, 'trello', { secret: TOKEN, min_priority: 'high', config: { ...CONFIG, status_map: { in_progress: 'doing', resolved: 'Done' } } })
    await fileBug(bed, { title: 'Controller disconnects', priority: 'critical', category: 'gameplay' })
    await fileBug(bed, { title: 'Small thing', priority: 'medium' })
    await bed.t.runner.drain()
    const creates = trelloCalls('POST', '/cards')
    expect(creates).toHaveLength(1)
    expect(creates[0]!.json).toMatchObject({ idList: INBOX, name: 'Controller disconnects (#1)', pos: 'top' })
    expect(creates[0]!.json.desc).toContain('- **category**: gameplay')
    expect(creates[0]!.json.desc).toContain(`http://glitchbox.test/projects/${bed.project.slug}/reports/1`)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    expect((await bed.t.request('GET', path, { token: bed.owner.token })).body.data.links).toMatchObject([{ provider: 'trello', external_id: '65a000000000000000000001', url: 'https://trello.com/c/AbCd1', state: 'open' }])

    for (const s of ['in_progress', 'resolved', 'closed', 'open']) {
      await setStatus(bed, 1, s)
      await bed.t.runner.drain()
    }
    expect(bed.fake.calls.filter((c) => c.method === 'PUT').map((c) => [c.path.split('?')[0], c.json])).toEqual([
      ['/cards/65a000000000000000000001', { idList: '64f0c1a2b3c4d5e6f7a8b9c2', closed: false }],
      ['/cards/65a000000000000000000001', { idList: '64f0c1a2b3c4d5e6f7a8b9c3', closed: false }],
      ['/cards/65a000000000000000000001', { closed: true }],
      ['/cards/65a000000000000000000001', { closed: false }],
    ])
    expect(trelloCalls('GET', `/boards/${BOARD}/lists`)[0]!.path).toBe(`/boards/${BOARD}/lists?filter=open&fields=name&key=${KEY}&token=${TOKEN}`)
    expect((await bed.t.request('GET', path, { token: bed.owner.token })).body.data.links[0].state).toBe('open')
  })

  it('POST /bugs/{number}/issues files once and answers 502 with Trello\'s refusal; a missing list fails the move', async () => {
    bed.fake.answer = trelloFake
    const id = await connect(bed, 'trello', { secret: TOKEN, event_types: ['bug_updated'], config: { ...CONFIG, status_map: { wont_fix: 'Graveyard' } } })
    await fileBug(bed, { title: 'Crash', priority: 'low' })
    await bed.t.runner.drain()
    expect(trelloCalls('POST', '/cards')).toHaveLength(0)
    const path = `/api/projects/${bed.project.slug}/bugs/1/issues`
    const first = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect(first.status).toBe(201)
    expect(first.body.data).toMatchObject({ provider: 'trello', external_id: '65a000000000000000000001', url: 'https://trello.com/c/AbCd1' })
    const again = await bed.t.request('POST', path, { token: bed.owner.token, body: { integration_id: id } })
    expect([again.status, again.body.data]).toEqual([200, first.body.data])
    expect(trelloCalls('POST', '/cards')).toHaveLength(1)

    await setStatus(bed, 1, 'wont_fix')
    await bed.t.runner.drain()
    const [move] = (await bed.t.request('GET', `${bed.base}/trello/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(move).toMatchObject({ action: 'move', status: 'pending', last_error: 'Trello has no open list named Graveyard on the card\'s board' })
    expect(bed.fake.calls.filter((c) => c.method === 'PUT')).toHaveLength(0)

    await fileBug(bed, { title: 'Other', priority: 'low' })
    bed.fake.answer = (c) => (c.method === 'POST' ? plain('unauthorized card permission requested', 401) : trelloFake(c))
    const refused = await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs/2/issues`, { token: bed.owner.token, body: { integration_id: id } })
    expect([refused.status, refused.body.error]).toEqual([502, 'Trello answered 401: unauthorized card permission requested'])
  })

  it('retries a refused filing after 1 minute, holding it while the connection is paused', async () => {
    const id = await connect(bed, 'trello', { secret: TOKEN, config: CONFIG })
    bed.fake.answer = () => json(429, { error: 'API_TOKEN_LIMIT_EXCEEDED', message: 'Rate limit exceeded' })
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/trello/${id}`, { token: bed.owner.token, body: { is_active: false } })
    bed.fake.answer = trelloFake
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await bed.t.request('PATCH', `${bed.base}/trello/${id}`, { token: bed.owner.token, body: { is_active: true } })
    await bed.t.runner.drain()
    const [d] = (await bed.t.request('GET', `${bed.base}/trello/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ action: 'file', status: 'succeeded', attempt_count: 2 })
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([429, 200])
    expect(d.attempts[0].error).toBe('Trello answered 429: Rate limit exceeded; API_TOKEN_LIMIT_EXCEEDED')
  })
})
