// /health reads the database file itself (src/db/read-probe.ts). The server's connections answer from
// their page caches, so before this a file overwritten with garbage still got 200 "healthy".
import { randomBytes } from 'node:crypto'
import { statSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DB_FILE } from '../../src/deps'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { onSqlite } from '../helpers/pg-engine'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const healthLogs = () => t.logs.filter((l) => l.msg === 'health check failed')

describe.skipIf(!onSqlite)('/health on a database file that cannot be read (SQLite: file probe)', () => {
  it('answers 503 with the reason while the cached connection still answers; logs once a minute', async () => {
    t.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
    expect(await t.request('GET', '/health')).toMatchObject({ status: 200, body: { status: 'healthy' } })

    const file = join(t.dir, DB_FILE)
    writeFileSync(file, randomBytes(statSync(file).size))
    // What /health asked before: the request connection's cache still answers it.
    expect(t.sqlite.query('SELECT 1 AS one').get()).toEqual({ one: 1 })

    const unhealthy = { status: 503, body: { status: 'unhealthy', error: 'the database cannot be read: file is not a database' } }
    expect(await t.request('GET', '/health')).toMatchObject(unhealthy)
    for (let i = 0; i < 3; i++) expect(await t.request('GET', '/health')).toMatchObject(unhealthy)
    expect(healthLogs()).toEqual([expect.objectContaining({ level: 'error', error: unhealthy.body.error, failures: 1 })])

    t.clock.advance(61_000)
    await t.request('GET', '/health')
    expect(healthLogs()).toHaveLength(2)
    expect(healthLogs()[1]).toMatchObject({ failures: 4 })
  })

  it('answers 503 when the file was emptied', async () => {
    t.sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
    truncateSync(join(t.dir, DB_FILE), 0)
    expect(await t.request('GET', '/health')).toMatchObject({ status: 503, body: { status: 'unhealthy', error: 'the database cannot be read: the database has no tables' } })
  })
})
