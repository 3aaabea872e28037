import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Full-text index over report title and description (FTS5, external content on `reports.seq`).
 * Triggers keep it in step with every insert, update and delete, whoever writes the row.
 */
export const reportsFtsSql = [
  `CREATE VIRTUAL TABLE IF NOT EXISTS reports_fts USING fts5(
    title, description, content='reports', content_rowid='seq', tokenize='unicode61 remove_diacritics 2'
  )`,
  // Merging happens in the background (reports.fts-merge.ts), not inside every insert.
  `INSERT INTO reports_fts(reports_fts, rank) VALUES ('automerge', 0)`,
  `CREATE TRIGGER IF NOT EXISTS reports_fts_ai AFTER INSERT ON reports BEGIN
    INSERT INTO reports_fts(rowid, title, description) VALUES (new.seq, new.title, new.description);
  END`,
  `CREATE TRIGGER IF NOT EXISTS reports_fts_ad AFTER DELETE ON reports BEGIN
    INSERT INTO reports_fts(reports_fts, rowid, title, description) VALUES ('delete', old.seq, old.title, old.description);
  END`,
  `CREATE TRIGGER IF NOT EXISTS reports_fts_au AFTER UPDATE OF title, description ON reports BEGIN
    INSERT INTO reports_fts(reports_fts, rowid, title, description) VALUES ('delete', old.seq, old.title, old.description);
    INSERT INTO reports_fts(rowid, title, description) VALUES (new.seq, new.title, new.description);
  END`,
]

/**
 * The FTS5 table as Drizzle sees it, for queries only: it is created by the SQL above and kept out of
 * `db/schema.ts`, so drizzle-kit never tries to migrate a virtual table.
 */
export const reportsFts = sqliteTable('reports_fts', {
  rowid: integer('rowid').notNull(),
  title: text('title').notNull(),
  description: text('description').notNull(),
})
