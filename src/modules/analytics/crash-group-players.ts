import type { Backfill } from '../../db/post-migrate'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * The distinct players of each crash group per game version, one row per (group, version, player):
 * a new row is a new player, so `analytics_crash_group_versions.players` is kept without counting
 * ("players hit by this crash in 1.3.0-beta"). WITHOUT ROWID (one B-tree) because a row is tried
 * with every crash occurrence; declared here rather than in a Drizzle table for that reason, and
 * created through the module's `database` parts (src/db/migrate.ts applies them).
 */
export const CRASH_GROUP_VERSION_PLAYERS_TABLE = 'analytics_crash_group_version_players'

export const crashGroupVersionPlayersSql = [
  `CREATE TABLE IF NOT EXISTS analytics_crash_group_version_players (
    group_id INTEGER NOT NULL REFERENCES analytics_crash_groups(id) ON DELETE CASCADE,
    game_version TEXT NOT NULL,
    player_id TEXT NOT NULL,
    PRIMARY KEY (group_id, game_version, player_id)
  ) WITHOUT ROWID`,
]

/** The table as Drizzle sees it, for the rollup's statements only (kept out of db/schema.ts, like report_players). */
export const analyticsCrashGroupVersionPlayers = sqliteTable(CRASH_GROUP_VERSION_PLAYERS_TABLE, {
  groupId: integer('group_id').notNull(),
  gameVersion: text('game_version').notNull(),
  playerId: text('player_id').notNull(),
})

/**
 * Fills the table for a database whose rollup counted crash occurrences before it existed: the
 * players of the occurrences up to the rollup's cursor, under the group of their report's
 * fingerprint, counted as crashes the way the rollup counts them (category `crash` or an error type);
 * then each version row's `players`.
 */
export const crashGroupVersionPlayersBackfill: Backfill = {
  sql: [
    `INSERT OR IGNORE INTO analytics_crash_group_version_players (group_id, game_version, player_id)
      SELECT g.id, o.game_version, o.player_id
      FROM report_occurrences o
        JOIN reports r ON r.id = o.report_id
        JOIN analytics_crash_groups g ON g.project_id = r.project_id AND g.fingerprint = r.fingerprint
      WHERE o.seq <= coalesce((SELECT position FROM rollup_cursors WHERE name = 'analytics_occurrences'), 0)
        AND o.player_id IS NOT NULL AND o.player_id <> ''
        AND (r.category = 'crash' OR (CASE WHEN o.error_type <> '' THEN o.error_type ELSE r.error_type END) <> '')`,
    `UPDATE analytics_crash_group_versions SET players = (SELECT count(*) FROM analytics_crash_group_version_players p
        WHERE p.group_id = analytics_crash_group_versions.group_id AND p.game_version = analytics_crash_group_versions.game_version)
      WHERE group_id IN (SELECT group_id FROM analytics_crash_group_version_players)`,
  ],
}
