// The report_daily table (report-daily.ts, and its PostgreSQL form report-daily.pg.ts): one count per
// report and day that the rollup adds to, gone with the report.
import { expect, it } from 'vitest'
import { onBothEngines, reportSql } from '../../helpers/raw-engines'

onBothEngines('report daily counts', (e) => {
  it('adds each batch to its report and day, and lets the report take its rows when deleted', async () => {
    await e.run(reportSql('p1', 1))
    await e.run(reportSql('p1', 2))
    for (const [seq, day, n] of [[1, 20000, 2], [1, 20000, 3], [1, 20001, 1], [2, 20000, 4]] as const) {
      await e.run(`INSERT INTO report_daily (report_seq, day, n) VALUES (${seq}, ${day}, ${n}) ON CONFLICT (report_seq, day) DO UPDATE SET n = report_daily.n + excluded.n`)
    }
    expect(await e.rows('SELECT report_seq, day, n FROM report_daily ORDER BY report_seq, day')).toEqual([
      { report_seq: 1, day: 20000, n: 5 },
      { report_seq: 1, day: 20001, n: 1 },
      { report_seq: 2, day: 20000, n: 4 },
    ])
    await e.run('DELETE FROM reports WHERE seq = 2')
    expect(await e.rows('SELECT report_seq FROM report_daily WHERE report_seq = 2')).toEqual([])
  })
})
