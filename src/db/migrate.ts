import type { Database } from 'bun:sqlite'
import { embeddedMigrations, type EmbeddedMigration } from './migrations.embedded'
import type { Backfill, DatabaseParts } from './post-migrate'
import { schemaBaseline } from './schema-baseline.embedded'

export class SchemaTooNewError extends Error {}

/**
 * Applies the migrations embedded in the binary that the database has not seen, each in its own
 * transaction, then the idempotent statements (FTS tables, triggers) and backfills the modules
 * declare (`parts`: src/modules/registry.ts collects them).
 * A database that carries a migration this build does not know was written by a newer version:
 * it is refused rather than risk corrupting it.
 *
 * A new, empty database does not replay the history: it is created from the schema the migrations
 * build (`baseline`, generated with them by scripts/embed-migrations.ts) in one transaction, every
 * migration marked applied, and no backfill runs (there is nothing to fill).
 */
export function migrate(
  sqlite: Database,
  parts: DatabaseParts[],
  migrations: EmbeddedMigration[] = embeddedMigrations,
  baseline: string[] | null = migrations === embeddedMigrations ? schemaBaseline : null,
): { applied: string[] } {
  const postMigrationSql = parts.flatMap((p) => p.sql ?? [])
  const postMigrationBackfills = parts.flatMap((p) => p.backfills ?? [])
  const migrationBackfills = parts.flatMap((p) => p.afterMigration ?? [])
  sqlite.exec(`CREATE TABLE IF NOT EXISTS glitchbox_migrations (
    tag TEXT PRIMARY KEY NOT NULL,
    hash TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`)
  const appliedRows = sqlite.query<{ tag: string; hash: string }, []>('SELECT tag, hash FROM glitchbox_migrations').all()
  const done = appliedRows.map((r) => r.tag)
  const known = new Map(migrations.map((m) => [m.tag, m.hash]))
  const unknown = done.filter((t) => !known.has(t))
  if (unknown.length > 0) {
    throw new SchemaTooNewError(
      `the database was written by a newer Glitchbox (unknown migration ${unknown.join(', ')}); upgrade the binary or restore a backup`,
    )
  }
  // An applied migration whose text changed would leave this database without the change: refuse.
  const changed = appliedRows.filter((r) => known.get(r.tag) !== r.hash).map((r) => r.tag)
  if (changed.length > 0) {
    throw new SchemaTooNewError(`migration ${changed.join(', ')} differs from the one this database applied; migrations must never be edited once released`)
  }
  const fresh = baseline !== null && done.length === 0 && sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name <> 'glitchbox_migrations'").get()!.n === 0
  if (fresh) {
    sqlite.transaction(() => {
      for (const stmt of baseline) sqlite.exec(stmt)
      const mark = sqlite.query('INSERT INTO glitchbox_migrations (tag, hash, applied_at) VALUES (?, ?, ?)')
      for (const m of migrations) mark.run(m.tag, m.hash, Date.now())
      for (const stmt of postMigrationSql) sqlite.exec(stmt)
    }).immediate()
    return { applied: migrations.map((m) => m.tag) }
  }
  const applied: string[] = []
  for (const m of migrations) {
    if (done.includes(m.tag)) continue
    sqlite.transaction(() => {
      for (const stmt of m.sql.split('--> statement-breakpoint')) {
        if (stmt.trim()) sqlite.exec(stmt)
      }
      sqlite.query('INSERT INTO glitchbox_migrations (tag, hash, applied_at) VALUES (?, ?, ?)').run(m.tag, m.hash, Date.now())
    }).immediate()
    applied.push(m.tag)
  }
  // Every transaction here takes the write lock first (BEGIN IMMEDIATE): a deferred one reads, then
  // writes (the post-migration SQL drops and creates triggers at every start), and when a running
  // server committed in between, SQLite answers SQLITE_BUSY at once instead of waiting (`glitchbox
  // admin …` beside a running server exited 1 that way now and then).
  sqlite.transaction(() => {
    const exists = sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM sqlite_master WHERE name = ?")
    const missing = postMigrationBackfills.filter((b) => exists.get(b.table)!.n === 0)
    for (const stmt of postMigrationSql) sqlite.exec(stmt)
    for (const b of missing) runBackfill(sqlite, b.backfill)
    for (const b of migrationBackfills) if (applied.includes(b.tag)) runBackfill(sqlite, b.backfill)
  }).immediate()
  return { applied }
}

/** Runs a declared backfill (post-migrate.ts) on the raw connection, inside the caller's transaction. */
export function runBackfill(sqlite: Database, b: Backfill): void {
  if ('sql' in b) {
    for (const stmt of b.sql) sqlite.exec(stmt)
    return
  }
  // In chunks by seq, so a million rows are never held at once.
  const chunk = sqlite.query<{ seq: number }, [number]>(b.rows.select)
  const update = sqlite.prepare<unknown, (string | number | null)[]>(b.rows.update)
  for (let rows = chunk.all(0); rows.length > 0; rows = chunk.all(rows.at(-1)!.seq)) {
    for (const r of rows) update.run(...b.rows.values(r))
  }
}
