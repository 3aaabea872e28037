// The database seam on PostgreSQL (src/db/pg/client.ts, src/db/pg/migrate.ts): an async write is
// all-or-nothing, a write inside a write joins it, a repository written for SQLite runs unchanged, and
// nodes starting together migrate once under the advisory lock. Runs in the suite's PostgreSQL mode
// (GLITCHBOX_TEST_PG, as `.ci/run` sets it); on SQLite, test/db/seam.test.ts covers the same behaviour.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { closeDb, type Db, execute, preparedRows, rowsOf, writeInTurn } from '../../src/db/client'
import { createPgDb, databaseReady, pgPool } from '../../src/db/pg/client'
import { migratePg } from '../../src/db/pg/migrate'
import { databaseParts } from '../../src/modules/registry'
import { embeddedMigrations } from '../../src/db/pg/migrations.embedded'
import { SchemaTooNewError } from '../../src/db/migrate'
import { createLabelsRepository } from '../../src/modules/labels/labels.repository'
import { accounts } from '../../src/modules/auth/accounts.table'
import { users } from '../../src/modules/auth/auth.table'
import { projects } from '../../src/modules/projects/projects.table'
import { labels as labels_ } from '../../src/modules/labels/labels.table'
import { adminQuery, dropTestDatabase, testPgServer, testPgTemplate } from '../helpers/pg-engine'

let name: string
let db: Db
/** A database of its own, empty (not from the template), so the migrations run here. */
async function emptyDatabase() {
  const dbName = `${testPgTemplate()}_seam_${crypto.randomUUID().slice(0, 8)}`
  await adminQuery(`CREATE DATABASE "${dbName}"`)
  return dbName
}

describe.skipIf(!testPgServer())('the seam on PostgreSQL', () => {
  beforeEach(async () => {
    name = await emptyDatabase()
    db = createPgDb(`${testPgServer()}/${name}`, { max: 4, prepare: (pool) => migratePg(pool, databaseParts) })
    await databaseReady(db)
    const now = new Date()
    await db.write(async (q) => {
      await q.insert(users).values({ id: 'u1', email: 'a@example.com', name: 'A', createdAt: now, updatedAt: now })
      await q.insert(accounts).values({ id: 'a1', name: 'A', ownerId: 'u1', plan: 'free', createdAt: now, updatedAt: now })
      await q.insert(projects).values({ id: 'p1', accountId: 'a1', name: 'P', slug: 'p', apiKey: 'k', createdAt: now, updatedAt: now })
    })
  })
  afterEach(async () => {
    await closeDb(db)
    await dropTestDatabase(name)
  })

  const labels = () => createLabelsRepository({ db })
  const label = (id: string, name: string) => ({ id, projectId: 'p1', name, color: '#ffffff', createdAt: new Date() })

  it('runs a repository written for SQLite unchanged: insert, read back with types, case-insensitive lookups', async () => {
    await labels().insert(label('l1', 'Crash'))
    const [row] = await labels().list('p1')
    expect(row).toMatchObject({ id: 'l1', name: 'Crash' })
    expect(row!.createdAt).toBeInstanceOf(Date)
    expect(await labels().nameTaken('p1', 'CRASH')).toBe(true)
  })

  it('plans every statement with its values, never a generic plan blind to skewed filters (17 s instead of 46 ms for the five-filter list)', async () => {
    // Bun prepares each statement; PostgreSQL's default switches a statement to a generic plan after
    // five runs. The pool's connections opt out (src/db/pg/client.ts).
    for (let i = 0; i < 7; i++) await db.read((q) => rowsOf(q, sql`SELECT count(*) AS n FROM labels WHERE project_id = ${'p1'}`))
    const [setting] = await db.read((q) => rowsOf<{ plan_cache_mode: string }>(q, sql`SHOW plan_cache_mode`))
    expect(setting!.plan_cache_mode).toBe('force_custom_plan')
  })

  it('leaves nothing behind when a write that awaited throws, rows before and after the await alike', async () => {
    await expect(
      db.write(async () => {
        await labels().insert(label('l1', 'before'))
        await Bun.sleep(5)
        await labels().insert(label('l2', 'after'))
        throw new Error('nope')
      }),
    ).rejects.toThrow('nope')
    expect(await labels().list('p1')).toEqual([])
  })

  it('joins a write inside a write: a read inside sees its rows, another connection does not until the commit', async () => {
    let seenInside = 0
    let seenOutside = -1
    await db.write(async () => {
      await labels().insert(label('l1', 'one'))
      seenInside = (await labels().list('p1')).length
      const other = createPgDb(`${testPgServer()}/${name}`, { max: 1 })
      seenOutside = ((await pgPool(other)!`SELECT count(*)::int AS n FROM labels`) as { n: number }[])[0]!.n
      await closeDb(other)
    })
    expect([seenInside, seenOutside]).toEqual([1, 0])
    expect(await labels().list('p1')).toHaveLength(1)
  })

  it('runs a statement prepared once on the database inside whichever write calls it, all or nothing', async () => {
    const insert = db.insert(labels_).values({ id: sql.placeholder('id'), projectId: 'p1', name: sql.placeholder('name'), color: '#ffffff', createdAt: new Date() }).prepare()
    await db.write(async () => void (await insert.execute({ id: 'l1', name: 'kept' })))
    await expect(
      db.write(async () => {
        await insert.execute({ id: 'l2', name: 'rolled back' })
        throw new Error('nope')
      }),
    ).rejects.toThrow('nope')
    expect((await labels().list('p1')).map((l) => l.name)).toEqual(['kept'])
  })

  it('sends work a write left running past its COMMIT to the pool, not to the finished transaction', async () => {
    let later!: Promise<{ n: number }[]>
    await db.write(async (q) => {
      await labels().insert(label('l1', 'one'))
      later = Bun.sleep(30).then(() => rowsOf<{ n: number }>(q, sql`SELECT count(*)::int AS n FROM labels`))
    })
    expect(await later).toEqual([{ n: 1 }])
  })

  it('takes turns on a key across two pools (two nodes, or the job thread beside the server): each write reads what the other committed', async () => {
    await labels().insert(label('l1', '0'))
    const other = createPgDb(`${testPgServer()}/${name}`, { max: 2 })
    // Each reads the counter first thing, waits, then raises it: a read sent before the key's lock
    // was taken would see the other's old value, and one raise would be lost.
    const raise = (on: Db) =>
      writeInTurn(on, 'counter', async (q) => {
        const [row] = await rowsOf<{ name: string }>(q, sql`SELECT name FROM labels WHERE id = 'l1'`)
        await Bun.sleep(30)
        await execute(q, sql`UPDATE labels SET name = ${String(Number(row!.name) + 1)} WHERE id = 'l1'`)
      })
    try {
      await Promise.all([raise(db), raise(other), raise(db), raise(other)])
    } finally {
      await closeDb(other)
    }
    expect((await labels().list('p1'))[0]!.name).toBe('4')
  })

  it('starts no parallel workers for its queries (starting them cost more than the queries)', async () => {
    const [setting] = await db.read((q) => rowsOf<{ max_parallel_workers_per_gather: string }>(q, sql`SHOW max_parallel_workers_per_gather`))
    expect(setting!.max_parallel_workers_per_gather).toBe('0')
  })

  it('migrates once when several nodes start together, and each finds the schema complete', async () => {
    const fresh = await emptyDatabase()
    const nodes = [0, 1, 2].map(() => createPgDb(`${testPgServer()}/${fresh}`, { max: 2 }))
    try {
      const runs = await Promise.all(nodes.map((node) => migratePg(pgPool(node)!)))
      expect(runs.map((r) => r.applied.length).sort()).toEqual([0, 0, embeddedMigrations.length])
      const [row] = await pgPool(nodes[0]!)!`SELECT count(*)::int AS n FROM glitchbox_migrations`
      expect(row).toEqual({ n: embeddedMigrations.length })
    } finally {
      for (const node of nodes) await closeDb(node)
      await dropTestDatabase(fresh)
    }
  })

  it('runs raw SQL with bound parameters through rowsOf and execute, inside a write too', async () => {
    await db.write((q) => execute(q, sql`INSERT INTO labels (id, project_id, name, color, created_at) VALUES (${'l9'}, ${'p1'}, ${'raw'}, ${'#000000'}, ${Date.now()})`))
    const rows = await db.read((q) => rowsOf<{ name: string }>(q, sql`SELECT name FROM labels WHERE project_id = ${'p1'}`))
    expect(rows).toEqual([{ name: 'raw' }])
  })

  it('runs raw SQL prepared once with each call\'s placeholder values through preparedRows, inside a write too', async () => {
    const named = preparedRows<{ name: string }>(() => sql`SELECT name FROM labels WHERE project_id = ${sql.placeholder('projectId')} AND name <> ${sql.placeholder('not')} ORDER BY name`)
    await labels().insert(label('l1', 'one'))
    await labels().insert(label('l2', 'two'))
    expect(await db.read((q) => named(q, { projectId: 'p1', not: 'one' }))).toEqual([{ name: 'two' }])
    expect(await db.read((q) => named(q, { projectId: 'p1', not: 'two' }))).toEqual([{ name: 'one' }])
    expect(await db.write((q) => named(q, { projectId: 'p1', not: '' }))).toEqual([{ name: 'one' }, { name: 'two' }])
  })

  it("applies the modules' PostgreSQL parts after the migrations (the reports' stored search document and its index)", async () => {
    const [row] = await pgPool(db)!`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'reports_search_document_idx'`
    expect(row).toEqual({ n: 1 })
  })

  it("runs the modules' parts again only when they changed or a migration ran: a restart on the same build skips them", async () => {
    const pool = pgPool(db)!
    const parts = (extra: string[]) => [{ postgres: { sql: ['CREATE TABLE IF NOT EXISTS part_runs (n integer)', 'INSERT INTO part_runs VALUES (1)', ...extra] } }]
    const runs = async () => ((await pool`SELECT count(*)::int AS n FROM part_runs`) as { n: number }[])[0]!.n
    await migratePg(pool, parts([]))
    await migratePg(pool, parts([]))
    expect(await runs()).toBe(1)
    await migratePg(pool, parts(['SELECT 1']))
    expect(await runs()).toBe(2)
    await migratePg(pool, parts(['SELECT 1']), [...embeddedMigrations, { tag: '9000_next', hash: 'h', sql: 'SELECT 1' }])
    expect(await runs()).toBe(3)
  })

  it('refuses a database that a newer build migrated, naming the migration', async () => {
    await pgPool(db)!`INSERT INTO glitchbox_migrations (tag, hash, applied_at) VALUES ('9999_future', 'x', 0)`
    await expect(migratePg(pgPool(db)!)).rejects.toThrow(SchemaTooNewError)
    await expect(migratePg(pgPool(db)!)).rejects.toThrow('9999_future')
  })
})
