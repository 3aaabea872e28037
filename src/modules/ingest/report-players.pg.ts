// The PostgreSQL form of report-players.ts: the distinct players of each report, a plain keyed table.
export const reportPlayersPgSql = [
  `CREATE TABLE IF NOT EXISTS report_players (
    report_seq integer NOT NULL REFERENCES reports(seq) ON DELETE CASCADE,
    player_id text NOT NULL,
    PRIMARY KEY (report_seq, player_id)
  )`,
]
