// The list benchmark's data set loaded into PostgreSQL (issue 31): the same reports as on SQLite
// (reports-seed.ts generateReports), in multi-row INSERTs.
import type { SQL } from 'bun'
import { migratePg } from '../../src/db/pg/migrate'
import { databaseParts } from '../../src/modules/registry'
import { generateReports, REPORT_COLUMNS, seedLabels, type SeededReport } from './reports-seed'

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement. */
const ROWS = 1_000

/** `INSERT INTO table (cols) VALUES (…), (…)` for `rows`, as one statement with bound parameters. */
async function insertRows(conn: SQL, table: string, columns: readonly string[], rows: unknown[][]): Promise<void> {
  for (let from = 0; from < rows.length; from += ROWS) {
    const batch = rows.slice(from, from + ROWS)
    const tuples = batch.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`)
    await conn.unsafe(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, batch.flat())
  }
}

/**
 * Inserts `n` reports into the migrated PostgreSQL database `pool`. As a bulk import would, the load
 * runs with triggers off (session_replication_role = replica) and without the secondary indexes of
 * `reports`; then the indexes are built again from their own definitions, the open-title index is
 * filled in one pass, and the migrations' own backfills count the loaded reports (status counts,
 * analytics dimensions: they fill tables the triggers left empty); a VACUUM ANALYZE settles it.
 */
export async function seedReportsPg(pool: SQL, o: { projectId: string; userId: string; n: number; start: number }): Promise<{ seconds: number; labelIds: string[] }> {
  const t0 = performance.now()
  const labels = seedLabels()
  const labelIds = labels.map((l) => l.id)
  const conn = await pool.reserve()
  try {
    await insertRows(conn, 'labels', ['id', 'project_id', 'name', 'color', 'created_at'], labels.map((l) => [l.id, o.projectId, l.name, '#2E5BFF', o.start]))
    const indexes = (await conn`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'reports' AND indexdef NOT LIKE 'CREATE UNIQUE%'`) as { indexname: string; indexdef: string }[]
    for (const ix of indexes) await conn.unsafe(`DROP INDEX ${ix.indexname}`)
    await conn.unsafe('SET session_replication_role = replica')
    const reports = generateReports({ ...o, labelIds })
    const BATCH = 20_000
    for (let from = 1; from <= o.n; from += BATCH) {
      const rows: unknown[][] = []
      const labelled: unknown[][] = []
      const facets: unknown[][] = []
      const daily: unknown[][] = []
      const occurrences: unknown[][] = []
      for (let i = from; i < Math.min(from + BATCH, o.n + 1); i++) {
        const r = reports.next().value as SeededReport
        // seq = the report's number: the table is empty and its identity is moved past them below.
        const seq = r.number
        rows.push([seq, ...r.values])
        if (r.label) labelled.push([r.values[0], seq, r.label])
        for (const [kind, value] of r.facets) facets.push([o.projectId, kind, value, seq])
        for (const [day, n] of r.daily) daily.push([seq, day, n])
        const oc = r.occurrence
        if (oc) occurrences.push([oc.id, r.values[0], o.projectId, oc.title, 'seeded', oc.version, oc.platform, oc.player, oc.at])
      }
      await conn.unsafe('BEGIN')
      await insertRows(conn, 'reports', ['seq', ...REPORT_COLUMNS], rows)
      await insertRows(conn, 'report_labels', ['report_id', 'report_seq', 'label_id'], labelled)
      await insertRows(conn, 'report_facets', ['project_id', 'kind', 'value', 'report_seq'], facets)
      await insertRows(conn, 'report_daily', ['report_seq', 'day', 'n'], daily)
      await insertRows(conn, 'report_occurrences', ['id', 'report_id', 'project_id', 'title', 'description', 'game_version', 'platform', 'player_id', 'created_at'], occurrences)
      await conn.unsafe('COMMIT')
    }
    await conn.unsafe('SET session_replication_role = DEFAULT')
    await conn.unsafe(`SELECT setval(pg_get_serial_sequence('reports', 'seq'), (SELECT max(seq) FROM reports))`)
    await conn`UPDATE projects SET last_report_number = ${o.n}, live_report_count = ${o.n} WHERE id = ${o.projectId}`
    for (const ix of indexes) await conn.unsafe(ix.indexdef)
    await conn.unsafe(`INSERT INTO open_title_terms (project_id, term, neg_seq, report_number, n_terms)
      SELECT r.project_id, t.term, -r.seq, r.report_number, jsonb_array_length(r.title_terms::jsonb)
      FROM reports r, jsonb_array_elements_text(r.title_terms::jsonb) AS t(term)
      WHERE r.deleted_at IS NULL AND r.status IN ('open', 'in_progress') AND r.title_terms IS NOT NULL
      ON CONFLICT DO NOTHING`)
    // The rollup has counted all but the newest 1,000 occurrences.
    await conn.unsafe(`INSERT INTO rollup_cursors (name, position) SELECT 'analytics_occurrences', max(seq) - 1000 FROM report_occurrences
      ON CONFLICT (name) DO UPDATE SET position = excluded.position`)
    // As autovacuum would leave a settled table: statistics, and the visibility map index-only scans read.
    await conn.unsafe('VACUUM ANALYZE')
  } finally {
    conn.release()
  }
  await migratePg(pool, databaseParts)
  return { seconds: (performance.now() - t0) / 1000, labelIds }
}
