import type { Backfill } from '../../db/post-migrate'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * The distinct players of each report's occurrences, one row per (report, player): a new row is a
 * new player, so `reports.player_count` is kept without counting. WITHOUT ROWID (one B-tree, not a
 * table and its key index) because a row is written with most occurrences; declared here rather
 * than in a Drizzle table for that reason, and created through the module's `database` parts (src/db/migrate.ts applies them).
 */
export const REPORT_PLAYERS_TABLE = 'report_players'

export const reportPlayersSql = [
  `CREATE TABLE IF NOT EXISTS report_players (
    report_seq INTEGER NOT NULL REFERENCES reports(seq) ON DELETE CASCADE,
    player_id TEXT NOT NULL,
    PRIMARY KEY (report_seq, player_id)
  ) WITHOUT ROWID`,
]

/** The table as Drizzle sees it, for queries only (kept out of db/schema.ts, like reports_fts). */
export const reportPlayers = sqliteTable('report_players', {
  reportSeq: integer('report_seq').notNull(),
  playerId: text('player_id').notNull(),
})

/** Fills the table from the occurrences of a database that had reports before it, and counts each report's players. */
export const reportPlayersBackfill: Backfill = {
  sql: [
    `INSERT OR IGNORE INTO report_players (report_seq, player_id)
      SELECT r.seq, o.player_id FROM report_occurrences o JOIN reports r ON r.id = o.report_id WHERE o.player_id IS NOT NULL AND o.player_id <> ''`,
    `UPDATE reports SET player_count = (SELECT count(*) FROM report_players p WHERE p.report_seq = reports.seq)
      WHERE seq IN (SELECT report_seq FROM report_players)`,
  ],
}
