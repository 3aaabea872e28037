// Issue 28 finding 10: after the database file was damaged under a running server, /health said 503
// but writes were still acknowledged 201 (the connection answers from its page cache) and lost at the
// next start. While the file cannot be read, every write answers 503 with a plain sentence and
// Retry-After; reads are still served; writes resume once the file reads again.
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DB_FILE } from '../../src/deps'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { onSqlite } from '../helpers/pg-engine'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => t.close())

const REFUSED = { ok: false, error: "the server's database cannot be read: nothing can be saved until an operator repairs or restores it" }
let n = 0
const file = () => t.request('POST', `/api/projects/${project.slug}/bugs`, { token: owner.token, body: { title: `Report ${++n}`, description: 'the door is stuck' } })

/** Overwrites the database file with fixed bytes of its size; returns its good bytes, to put back. */
function damage(): Buffer {
  t.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
  const path = join(t.dir, DB_FILE)
  const good = readFileSync(path)
  writeFileSync(path, Buffer.alloc(statSync(path).size, 0xa5))
  return good
}

describe.skipIf(!onSqlite)('writes while the database file cannot be read (SQLite: file probe)', () => {
  it('answer 503 once /health saw it, reads still answer, and writes resume when the file is readable again', async () => {
    expect((await file()).status).toBe(201)
    const good = damage()
    expect((await t.request('GET', '/health')).status).toBe(503)

    const refused = await file()
    expect([refused.status, refused.body]).toEqual([503, REFUSED])
    expect(refused.headers.get('retry-after')).toBe('60')
    const update = await t.request('PATCH', `/api/projects/${project.slug}/bugs/1`, { token: owner.token, body: { status: 'resolved' } })
    expect([update.status, update.body]).toEqual([503, REFUSED])
    const sentry = await t.request('POST', `/api/1/envelope/?sentry_key=${project.apiKey}`, { body: '{}\n{"type":"event"}\n{}' })
    expect([sentry.status, sentry.body]).toEqual([503, { detail: REFUSED.error }])
    // Reads are not refused by this guard (what they answer depends on the connection's cache).
    expect((await t.request('GET', `/api/projects/${project.slug}`, { token: owner.token })).status).not.toBe(503)
    expect(t.logs.filter((l) => l.msg === 'a write was refused: the database file cannot be read')).toEqual([
      expect.objectContaining({ level: 'error', failures: 1, error: 'file is not a database' }),
    ])

    writeFileSync(join(t.dir, DB_FILE), good)
    expect((await file()).status).toBe(201)
    expect((await t.request('GET', '/health')).status).toBe(200)
  })

  it('are refused without waiting for /health: a write probes the file when its last answer is a second old', async () => {
    expect((await file()).status).toBe(201)
    damage()
    t.clock.advance(1_000)
    expect((await file()).body).toEqual(REFUSED)
  })
})
