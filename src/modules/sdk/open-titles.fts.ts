/**
 * A small full-text index of the titles of open reports (status open or in_progress, not deleted),
 * which is where `possible_duplicates` looks. Kept apart from `reports_fts` for speed: its doclists
 * hold titles only, and its rowid is the report's seq negated, so FTS5's natural ascending walk
 * yields the newest matches first and stops after a few (a descending walk over `reports_fts` cost
 * ~400 µs per submit at 1M reports). Contentless and without positions (detail=none): nothing but
 * the doclists is stored, and a lookup decodes no position lists. Each entry starts with a project
 * token (`p` and the id without dashes) so a lookup never wanders into other projects' reports.
 */
export const OPEN_TITLES_TABLE = 'open_report_titles'

const isOpen = (row: 'new' | '') => {
  const c = row ? `${row}.` : ''
  return `${c}deleted_at IS NULL AND ${c}status IN ('open', 'in_progress')`
}
const insertNewIfOpen = `INSERT INTO open_report_titles (rowid, terms)
     SELECT -new.seq, 'p' || replace(new.project_id, '-', '') || ' ' || new.title WHERE ${isOpen('new')};`

export const openTitlesFtsSql = [
  `CREATE VIRTUAL TABLE IF NOT EXISTS open_report_titles USING fts5(
    terms, content='', contentless_delete=1, detail=none, tokenize='unicode61 remove_diacritics 2'
  )`,
  `CREATE TRIGGER IF NOT EXISTS open_titles_ai AFTER INSERT ON reports BEGIN
    ${insertNewIfOpen}
  END`,
  `CREATE TRIGGER IF NOT EXISTS open_titles_au AFTER UPDATE OF title, status, deleted_at, project_id ON reports BEGIN
    DELETE FROM open_report_titles WHERE rowid = -old.seq;
    ${insertNewIfOpen}
  END`,
  `CREATE TRIGGER IF NOT EXISTS open_titles_ad AFTER DELETE ON reports BEGIN
    DELETE FROM open_report_titles WHERE rowid = -old.seq;
  END`,
]

/** Fills the index from the reports of a database that predates it (run once, when the table is created). */
export const openTitlesBackfillSql = `INSERT INTO open_report_titles (rowid, terms)
  SELECT -seq, 'p' || replace(project_id, '-', '') || ' ' || title FROM reports WHERE ${isOpen('')}`
