/**
 * A backfill, declared rather than run by the module that owns it: migrate() (src/db/migrate.ts)
 * runs it on the raw connection inside the migration's transaction, so no domain file calls the
 * database for one.
 * - `sql`: statements run in order (the usual form: INSERT … SELECT, UPDATE … FROM the rows already there).
 * - `rows`: values only the app can compute (title words, fingerprints: Unicode folding and hashing
 *   SQLite cannot do), read in chunks of `select` and written back by `update`, one row at a time.
 */
export type Backfill = { sql: string[] } | { rows: ComputedRows }

/** A backfill row by row: read a chunk, compute each row's parameters in code, write them. */
export interface ComputedRows<Row extends { seq: number } = any> {
  /** The next chunk of rows with `seq` above the one bound parameter, by seq (start: 0; empty: done). */
  select: string
  /** Run once per row with `values(row)` as its parameters. */
  update: string
  values: (row: Row) => (string | number | null)[]
}

/**
 * What a domain adds to the database beside its Drizzle tables, registered through its module
 * definition (src/modules/module.ts) as it registers routes and jobs, and applied by migrate().
 */
export interface DatabaseParts {
  /** Idempotent SQL drizzle-kit cannot express (FTS5 virtual tables, WITHOUT ROWID tables, triggers), applied after every migration run. */
  sql?: string[]
  /** Run once, right after `sql` first creates `table` in a database that already had rows: fills an index added later. */
  backfills?: { table: string; backfill: Backfill }[]
  /** Run once, after the migration `tag` is applied and the SQL above: data the migration's SQL did not fill. */
  afterMigration?: { tag: string; backfill: Backfill }[]
  /**
   * The same on PostgreSQL (src/db/pg/migrate.ts): idempotent SQL (functions, triggers, indexes that
   * drizzle-kit cannot express) applied after every migration run, in one transaction. A PostgreSQL
   * database is new or moved whole from SQLite, so it needs no backfills.
   */
  postgres?: { sql?: string[] }
}
