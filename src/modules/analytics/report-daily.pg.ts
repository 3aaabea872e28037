// The PostgreSQL form of report-daily.ts: occurrences per report and UTC day, a plain keyed table.
export const reportDailyPgSql = [
  `CREATE TABLE IF NOT EXISTS report_daily (
    report_seq integer NOT NULL REFERENCES reports(seq) ON DELETE CASCADE,
    day integer NOT NULL,
    n integer NOT NULL,
    PRIMARY KEY (report_seq, day)
  )`,
]
