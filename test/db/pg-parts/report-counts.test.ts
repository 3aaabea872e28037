// report_status_counts kept by triggers (reports.counts.ts, and its PostgreSQL form reports.counts.pg.ts):
// the same writes give the same counts on both engines.
import { expect, it } from 'vitest'
import { onBothEngines, reportSql } from '../../helpers/raw-engines'

onBothEngines('report status counts', (e) => {
  const counts = () => e.rows<{ project_id: string; status: string; n: number }>('SELECT project_id, status, n FROM report_status_counts WHERE n <> 0 ORDER BY project_id, status')

  it('counts live reports per project and status through inserts, status changes, moves and deletes', async () => {
    await e.run(reportSql('p1', 1))
    await e.run(reportSql('p1', 2))
    await e.run(reportSql('p1', 3, { status: 'resolved' }))
    await e.run(reportSql('p1', 4, { deleted_at: 5 }))
    await e.run(reportSql('p2', 1))
    expect(await counts()).toEqual([
      { project_id: 'p1', status: 'open', n: 2 },
      { project_id: 'p1', status: 'resolved', n: 1 },
      { project_id: 'p2', status: 'open', n: 1 },
    ])
    await e.run(`UPDATE reports SET status = 'in_progress' WHERE id = 'r1'`)
    await e.run(`UPDATE reports SET deleted_at = 9 WHERE id = 'r2'`)
    await e.run(`UPDATE reports SET deleted_at = NULL WHERE id = 'r4'`)
    await e.run(`UPDATE reports SET project_id = 'p2', report_number = 7 WHERE id = 'r3'`)
    await e.run(`UPDATE reports SET title = 'renamed' WHERE id = 'r1'`)
    expect(await counts()).toEqual([
      { project_id: 'p1', status: 'in_progress', n: 1 },
      { project_id: 'p1', status: 'open', n: 1 },
      { project_id: 'p2', status: 'open', n: 1 },
      { project_id: 'p2', status: 'resolved', n: 1 },
    ])
    await e.run(`DELETE FROM reports WHERE id IN ('r1', 'r2')`)
    await e.run(`DELETE FROM projects WHERE id = 'p2'`)
    expect(await counts()).toEqual([{ project_id: 'p1', status: 'open', n: 1 }])
  })
})
