import type { SqliteHandle } from './client'

/** Fills rows the app computes, on the raw connection inside the migration's transaction. */
export type Backfill = (sqlite: SqliteHandle) => void

/**
 * What a domain adds to the database beside its Drizzle tables, registered through its module
 * definition (src/modules/module.ts) as it registers routes and jobs, and applied by migrate().
 */
export interface DatabaseParts {
  /** Idempotent SQL drizzle-kit cannot express (FTS5 virtual tables, WITHOUT ROWID tables, triggers), applied after every migration run. */
  sql?: string[]
  /** Run once, right after `sql` first creates `table` in a database that already had rows: fills an index added later. */
  backfills?: { table: string; run: Backfill }[]
  /** Run once, after the migration `tag` is applied and the SQL above: data only the app can compute. */
  afterMigration?: { tag: string; run: Backfill }[]
  /**
   * The same on PostgreSQL (src/db/pg/migrate.ts): idempotent SQL (functions, triggers, indexes that
   * drizzle-kit cannot express) applied after every migration run, in one transaction. A PostgreSQL
   * database is new or moved whole from SQLite, so it needs no backfills.
   */
  postgres?: { sql?: string[] }
}
