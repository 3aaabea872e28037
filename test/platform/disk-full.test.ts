// A full disk: writes answer 507 with a plain sentence (SQLITE_FULL from the database, ENOSPC from
// file writes), it is logged once a minute rather than per request, /health answers 503 with the
// reason while writes fail, and everything recovers by itself once space returns.
// The full database is simulated with PRAGMA max_page_count (the file cannot grow past its size).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sdkProject } from '../sdk/sdk-helpers'
import { onSqlite } from '../helpers/pg-engine'

let t: TestApp
let owner: TestUser
let slug: string
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  slug = (await createProject(t, owner)).slug
})
afterEach(() => t.close())

const FULL = { ok: false, error: "the server's disk is full" }
let n = 0
const file = () => t.request('POST', `/api/projects/${slug}/bugs`, { token: owner.token, body: { title: `Disk report ${++n}`, description: 'x'.repeat(8000) } })
const fullLogs = () => t.logs.filter((l) => l.level === 'error' && String(l.msg).includes('disk is full'))
const pages = () => (t.sqlite.query('PRAGMA page_count').get() as { page_count: number }).page_count

/** Stops the database from growing; returns the first write refused. */
async function fillDatabase() {
  t.sqlite.run(`PRAGMA max_page_count = ${pages()}`)
  for (let i = 0; i < 20; i++) {
    const res = await file()
    if (res.status !== 201) return res
  }
  throw new Error('the database kept growing')
}

describe.skipIf(!onSqlite)('a full database (SQLite: SQLITE_FULL)', () => {
  it('answers 507, reports 503 on /health with the reason, logs once a minute, and recovers when space returns', async () => {
    expect((await t.request('GET', '/health')).status).toBe(200)
    const refused = await fillDatabase()
    expect(refused.status).toBe(507)
    expect(refused.body).toEqual(FULL)
    for (let i = 0; i < 3; i++) expect((await file()).body).toEqual(FULL)
    expect(fullLogs()).toHaveLength(1)

    const health = await t.request('GET', '/health')
    expect(health.status).toBe(503)
    expect(health.body).toEqual({ status: 'unhealthy', error: "the server's disk is full", database: { engine: 'sqlite' } })

    t.clock.advance(61_000)
    expect((await file()).status).toBe(507)
    expect(fullLogs()).toHaveLength(2)

    // Space returns: nothing to restart.
    t.sqlite.run('PRAGMA max_page_count = 1073741823')
    expect(await t.request('GET', '/health')).toMatchObject({ status: 200, body: { status: 'healthy' } })
    expect((await file()).status).toBe(201)
    // Reads never stopped.
    expect((await t.request('GET', `/api/projects/${slug}/bugs`, { token: owner.token })).status).toBe(200)
  })

  it('leaves no probe table behind', async () => {
    await fillDatabase()
    await t.request('GET', '/health')
    t.sqlite.run('PRAGMA max_page_count = 1073741823')
    await t.request('GET', '/health')
    expect(t.sqlite.query("SELECT name FROM sqlite_master WHERE name LIKE '%probe%'").all()).toEqual([])
  })
})

describe('a full disk under the files (ENOSPC)', () => {
  it('answers 507 to an upload whose file write fails, and 201 once writes work again', async () => {
    const { key } = await sdkProject(t)
    const store = t.deps.files.store.bind(t.deps.files)
    // Failure injection: the storage's write fails as a full disk makes it fail.
    t.deps.files.store = async () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 })
    }
    const screenshot = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64')}`
    const submit = () => t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'Crash on load', description: 'It crashed.', screenshot } })
    const refused = await submit()
    expect(refused.status).toBe(507)
    expect(refused.body).toEqual(FULL)
    expect(fullLogs()).toHaveLength(1)
    t.deps.files.store = store
    expect((await submit()).status).toBe(201)
    expect((await t.request('GET', '/health')).status).toBe(200)
  })
})
