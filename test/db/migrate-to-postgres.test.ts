// `glitchbox migrate-to-postgres` (src/cli/migrate-to-postgres.ts): a SQLite data directory moved into
// an empty PostgreSQL database keeps every row, report numbers, ids and the key that encrypts stored
// credentials; a target with data, or another key, is refused. Runs in the suite's PostgreSQL mode.
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/config'
import { migrateToPostgres } from '../../src/db/pg/copy-from-sqlite'
import { databaseParts } from '../../src/modules/registry'
import { createLabelsRepository } from '../../src/modules/labels/labels.repository'
import { closeDb } from '../../src/db/client'
import { createPgDb, pgPool } from '../../src/db/pg/client'
import { signupViaApi } from '../auth/auth-helpers'
import { adminQuery, dropTestDatabase, testPgServer, testPgTemplate } from '../helpers/pg-engine'
import { createTestApp, type TestApp } from '../helpers/test-app'

describe.skipIf(!testPgServer())('migrate-to-postgres', () => {
  let t: TestApp
  let target: string
  beforeEach(async () => {
    t = createTestApp({ engine: 'sqlite' })
    target = `${testPgTemplate()}_move_${crypto.randomUUID().slice(0, 8)}`
    await adminQuery(`CREATE DATABASE "${target}"`)
  })
  afterEach(async () => {
    t.close()
    await dropTestDatabase(target)
  })

  const key = () => readFileSync(join(t.dir, 'secrets.key'), 'utf8').trim()
  const configFor = (secretKey: string) => loadConfig({ GLITCHBOX_DATA_DIR: t.dir, GLITCHBOX_DATABASE_URL: `${testPgServer()}/${target}`, GLITCHBOX_SECRET_KEY: secretKey })

  /** A studio's data through the API: an account, a project, three reports (one grouped twice), a label. */
  async function studio() {
    const owner = await signupViaApi(t)
    const project = (await t.request('POST', '/api/projects', { token: owner.token, body: { name: 'Moving Game' } })).body.data as { id: string; slug: string; api_key: string }
    for (const title of ['Boss stuck in wall', 'Audio cuts out', 'Boss stuck in wall', 'Crash on load']) {
      // 201 files a report, 200 adds an occurrence to the one with the same title.
      expect([200, 201]).toContain((await t.request('POST', '/api/bugs/submit', { apiKey: project.api_key, body: { title, description: 'It happened' } })).status)
    }
    expect((await t.request('POST', `/api/projects/${project.slug}/labels`, { token: owner.token, body: { name: 'Crash' } })).status).toBe(201)
    // The key that encrypts stored credentials exists once anything was encrypted.
    t.deps.secrets.key()
    return project
  }

  it('copies every table row for row, keeping report numbers, and new rows get fresh ids', async () => {
    const project = await studio()
    const numbers = t.sqlite.query<{ report_number: number; title: string }, []>('SELECT report_number, title FROM reports ORDER BY report_number').all()
    const lines: string[] = []
    const result = await migrateToPostgres(configFor(key()), databaseParts, (l) => lines.push(l))
    expect(lines).toContain(`reports: ${numbers.length} row(s)`)

    const pg = createPgDb(`${testPgServer()}/${target}`, { max: 1 })
    try {
      const pool = pgPool(pg)!
      const tables = ((await pool`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'glitchbox_migrations'`) as { tablename: string }[]).map((r) => r.tablename)
      let total = 0
      for (const name of tables) {
        const inSqlite = t.sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?").get(name)!.n
        if (!inSqlite) continue
        const expected = t.sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${name}"`).get()!.n
        const [row] = (await pool.unsafe(`SELECT count(*)::int AS n FROM "${name}"`)) as { n: number }[]
        expect({ name, n: row!.n }).toEqual({ name, n: expected })
        total += expected
      }
      expect(result.rows).toBe(total)
      expect([...(await pool`SELECT report_number, title FROM reports ORDER BY report_number`)]).toEqual(numbers)
      const labels = createLabelsRepository({ db: pg })
      expect((await labels.list(project.id)).map((l) => l.name)).toEqual(['Crash'])
      // Identity columns continue after the copied rows.
      const [{ max }] = (await pool`SELECT max(seq)::int AS max FROM activity`) as { max: number }[]
      const [{ seq }] = (await pool`INSERT INTO activity (project_id, action, created_at) VALUES (${project.id}, 'probe', 0) RETURNING seq`) as { seq: number }[]
      expect(seq).toBe((max ?? 0) + 1)
      // The planner knows the copied rows at once (not the empty tables the schema made), so the first
      // lists are planned for the data they read.
      const [stats] = (await pool`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'reports'`) as { n: number }[]
      expect(stats!.n).toBe(numbers.length)
    } finally {
      await closeDb(pg)
    }
  })

  it('refuses a target that has data, and leaves it as it was', async () => {
    await studio()
    await migrateToPostgres(configFor(key()), databaseParts, () => {})
    await expect(migrateToPostgres(configFor(key()), databaseParts, () => {})).rejects.toThrow(/the PostgreSQL database is not empty \(table \w+ has rows\): copy into a new database/)
  })

  it('refuses another key than the data directory’s, which encrypts the stored credentials, naming the file', async () => {
    await studio()
    const other = Buffer.alloc(32, 9).toString('base64')
    await expect(migrateToPostgres(configFor(other), databaseParts, () => {})).rejects.toThrow(`GLITCHBOX_SECRET_KEY must be the key of ${join(t.dir, 'secrets.key')}`)
  })
})
