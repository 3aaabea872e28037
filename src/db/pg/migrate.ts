import type { SQL } from 'bun'
import { SchemaTooNewError } from '../migrate'
import type { EmbeddedMigration } from '../migrations.embedded'
import type { DatabaseParts } from '../post-migrate'
import { embeddedMigrations } from './migrations.embedded'

/** The advisory lock every node takes to migrate, so several starting at once migrate once. */
const MIGRATION_LOCK = 7_242_001

/**
 * Applies the PostgreSQL migrations embedded in the binary that the database has not seen, each in its
 * own transaction, then the modules' PostgreSQL parts (`parts`: src/modules/registry.ts), under an advisory lock (nodes starting together wait their turn and then find
 * nothing to do). As on SQLite, a database carrying a migration this build does not know, or one whose
 * text changed, is refused.
 */
export async function migratePg(pool: SQL, parts: DatabaseParts[] = [], migrations: EmbeddedMigration[] = embeddedMigrations): Promise<{ applied: string[] }> {
  const conn = await pool.reserve()
  try {
    await conn`SELECT pg_advisory_lock(${MIGRATION_LOCK})`
    try {
      await conn.unsafe(`CREATE TABLE IF NOT EXISTS glitchbox_migrations (
        tag text PRIMARY KEY NOT NULL,
        hash text NOT NULL,
        applied_at bigint NOT NULL
      )`)
      const rows = (await conn`SELECT tag, hash FROM glitchbox_migrations`) as { tag: string; hash: string }[]
      const known = new Map(migrations.map((m) => [m.tag, m.hash]))
      const unknown = rows.filter((r) => !known.has(r.tag)).map((r) => r.tag)
      if (unknown.length > 0) {
        throw new SchemaTooNewError(`the database was written by a newer Glitchbox (unknown migration ${unknown.join(', ')}); upgrade the binary or restore a backup`)
      }
      const changed = rows.filter((r) => known.get(r.tag) !== r.hash).map((r) => r.tag)
      if (changed.length > 0) {
        throw new SchemaTooNewError(`migration ${changed.join(', ')} differs from the one this database applied; migrations must never be edited once released`)
      }
      const done = new Set(rows.map((r) => r.tag))
      const applied: string[] = []
      for (const m of migrations) {
        if (done.has(m.tag)) continue
        await conn.unsafe('BEGIN')
        try {
          for (const stmt of m.sql.split('--> statement-breakpoint')) if (stmt.trim()) await conn.unsafe(stmt)
          await conn`INSERT INTO glitchbox_migrations (tag, hash, applied_at) VALUES (${m.tag}, ${m.hash}, ${Date.now()})`
          await conn.unsafe('COMMIT')
        } catch (err) {
          await conn.unsafe('ROLLBACK')
          throw err
        }
        applied.push(m.tag)
      }
      // The modules' own SQL (src/modules/*/…module.ts `database.postgres`: triggers, derived tables and
      // their one-time fills), when it or the schema changed. It is idempotent, but its ~70 statements
      // take ~150 ms and an exclusive lock on the tables they touch: a node (or a test database cloned
      // from a migrated one) that starts on a database that already ran this very SQL skips it. The
      // hash of what ran is kept as the comment of the migrations table, beside the history it belongs to.
      const postMigrationSql = parts.flatMap((p) => p.postgres?.sql ?? [])
      const partsMark = `module parts ${new Bun.CryptoHasher('sha256').update(postMigrationSql.join('\n;\n')).digest('hex')}`
      const [current] = (await conn`SELECT obj_description('glitchbox_migrations'::regclass, 'pg_class') AS mark`) as { mark: string | null }[]
      if (postMigrationSql.length && (applied.length > 0 || current?.mark !== partsMark)) {
        await conn.unsafe('BEGIN')
        try {
          for (const stmt of postMigrationSql) await conn.unsafe(stmt)
          await conn.unsafe(`COMMENT ON TABLE glitchbox_migrations IS '${partsMark}'`)
          await conn.unsafe('COMMIT')
        } catch (err) {
          await conn.unsafe('ROLLBACK')
          throw err
        }
      }
      return { applied }
    } finally {
      await conn`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`
    }
  } finally {
    await conn.release()
  }
}
