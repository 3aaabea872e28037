// The report_players table (report-players.ts, and its PostgreSQL form report-players.pg.ts): a new row
// is a new player of the report (what keeps reports.player_count without counting), gone with the report.
import { expect, it } from 'vitest'
import { onBothEngines, reportSql } from '../../helpers/raw-engines'

onBothEngines('report players', (e) => {
  it('takes each player of a report once and lets the report take its rows when deleted', async () => {
    await e.run(reportSql('p1', 1))
    await e.run(reportSql('p1', 2))
    for (const [seq, player] of [[1, 'alice'], [1, 'bob'], [1, 'alice'], [2, 'alice']] as const) {
      await e.run(`INSERT INTO report_players (report_seq, player_id) VALUES (${seq}, '${player}') ON CONFLICT DO NOTHING`)
    }
    expect(await e.rows('SELECT report_seq, player_id FROM report_players ORDER BY report_seq, player_id')).toEqual([
      { report_seq: 1, player_id: 'alice' },
      { report_seq: 1, player_id: 'bob' },
      { report_seq: 2, player_id: 'alice' },
    ])
    await e.run(`DELETE FROM reports WHERE seq = 1`)
    expect(await e.rows('SELECT report_seq, player_id FROM report_players')).toEqual([{ report_seq: 2, player_id: 'alice' }])
  })
})
