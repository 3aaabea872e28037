// The PostgreSQL form of crash-group-players.ts: the distinct players of each crash group per game
// version, a plain keyed table.
export const crashGroupVersionPlayersPgSql = [
  `CREATE TABLE IF NOT EXISTS analytics_crash_group_version_players (
    group_id integer NOT NULL REFERENCES analytics_crash_groups(id) ON DELETE CASCADE,
    game_version text NOT NULL,
    player_id text NOT NULL,
    PRIMARY KEY (group_id, game_version, player_id)
  )`,
]
