import type { Backfill } from '../../db/post-migrate'
import { titleTermsOf } from '../reports/title-terms'

/**
 * The index `possible_duplicates` looks in: one row per significant word of the title of every
 * open report (status open or in_progress, not deleted), keyed (project, word, -seq). A lookup is
 * one B-tree seek per word of the new title that reads the newest few entries in key order, and
 * each entry carries what the ranking needs (report number, word count), so no report row is read.
 *
 * It replaced a contentless FTS5 index of the same titles: every FTS5 segment costs each lookup a
 * seek per word, and between background merges a busy ingest kept 10-16 segments (80-130 µs per
 * lookup against 15-20 µs here).
 *
 * The words come from `reports.title_terms` (a JSON array the app writes with the title, see
 * title-terms.ts); the triggers below keep the index in step with every insert, update and delete
 * of a report, whoever makes it.
 */
export const OPEN_TITLE_TERMS_TABLE = 'open_title_terms'

const isOpen = (row: 'new' | '') => {
  const c = row ? `${row}.` : ''
  return `${c}deleted_at IS NULL AND ${c}status IN ('open', 'in_progress')`
}
const insertNewIfOpen = `INSERT OR IGNORE INTO open_title_terms (project_id, term, neg_seq, report_number, n_terms)
     SELECT new.project_id, value, -new.seq, new.report_number, json_array_length(new.title_terms)
     FROM json_each(new.title_terms) WHERE ${isOpen('new')};`
const deleteOld = `DELETE FROM open_title_terms
     WHERE project_id = old.project_id AND neg_seq = -old.seq AND term IN (SELECT value FROM json_each(old.title_terms));`

export const openTitleTermsSql = [
  // The FTS5 index this table replaced.
  'DROP TRIGGER IF EXISTS open_titles_ai',
  'DROP TRIGGER IF EXISTS open_titles_au',
  'DROP TRIGGER IF EXISTS open_titles_ad',
  'DROP TABLE IF EXISTS open_report_titles',
  `CREATE TABLE IF NOT EXISTS open_title_terms (
    project_id TEXT NOT NULL,
    term TEXT NOT NULL,
    neg_seq INTEGER NOT NULL,
    report_number INTEGER NOT NULL,
    n_terms INTEGER NOT NULL,
    PRIMARY KEY (project_id, term, neg_seq)
  ) WITHOUT ROWID`,
  `CREATE TRIGGER IF NOT EXISTS open_title_terms_ai AFTER INSERT ON reports WHEN new.title_terms IS NOT NULL BEGIN
    ${insertNewIfOpen}
  END`,
  `CREATE TRIGGER IF NOT EXISTS open_title_terms_au AFTER UPDATE OF title_terms, status, deleted_at, project_id, report_number ON reports BEGIN
    ${deleteOld}
    ${insertNewIfOpen}
  END`,
  `CREATE TRIGGER IF NOT EXISTS open_title_terms_ad AFTER DELETE ON reports BEGIN
    ${deleteOld}
  END`,
]

/**
 * Gives the reports of a database that predates `title_terms` their words, which fills the index
 * through the update trigger (run once, when the table is created; about 15 µs a report). Row by
 * row: the words are folded and filtered in code (title-terms.ts), which SQLite cannot do.
 */
export const openTitleTermsBackfill: Backfill = {
  rows: {
    select: 'SELECT seq, title FROM reports WHERE seq > ? ORDER BY seq LIMIT 5000',
    update: 'UPDATE reports SET title_terms = ? WHERE seq = ?',
    values: (r: { seq: number; title: string }) => [titleTermsOf(r.title), r.seq],
  },
}
