// The analytics rollups kept by triggers (analytics.triggers.ts, and its PostgreSQL form
// analytics.triggers.pg.ts): live reports by priority and category, and resolutions per UTC day.
import { expect, it } from 'vitest'
import { onBothEngines, reportSql } from '../../helpers/raw-engines'

// 2026-03-01T23:59:59.999Z and the next millisecond: the day is the UTC day of updated_at.
const LAST_MS_OF_MARCH_1 = Date.UTC(2026, 2, 1, 23, 59, 59, 999)

onBothEngines('analytics dimensions', (e) => {
  const dims = () =>
    e.rows<{ project_id: string; dimension: string; value: string; n: number }>(
      'SELECT project_id, dimension, value, n FROM analytics_report_dimensions WHERE n <> 0 ORDER BY project_id, dimension, value',
    )

  it('counts live reports by priority and category through inserts, edits, moves and deletes', async () => {
    await e.run(reportSql('p1', 1, { priority: 'high', category: 'crash' }))
    await e.run(reportSql('p1', 2, { priority: 'low' }))
    await e.run(reportSql('p1', 3, { deleted_at: 1 }))
    await e.run(reportSql('p2', 1))
    await e.run(`UPDATE reports SET priority = 'low' WHERE id = 'r1'`)
    await e.run(`UPDATE reports SET deleted_at = 2 WHERE id = 'r2'`)
    await e.run(`UPDATE reports SET project_id = 'p2', report_number = 9 WHERE id = 'r1'`)
    await e.run(`UPDATE reports SET deleted_at = NULL WHERE id = 'r3'`)
    expect(await dims()).toEqual([
      { project_id: 'p1', dimension: 'category', value: 'other', n: 1 },
      { project_id: 'p1', dimension: 'priority', value: 'medium', n: 1 },
      { project_id: 'p2', dimension: 'category', value: 'crash', n: 1 },
      { project_id: 'p2', dimension: 'category', value: 'other', n: 1 },
      { project_id: 'p2', dimension: 'priority', value: 'low', n: 1 },
      { project_id: 'p2', dimension: 'priority', value: 'medium', n: 1 },
    ])
    await e.run(`DELETE FROM reports WHERE id = 'r3'`)
    await e.run(`DELETE FROM projects WHERE id = 'p2'`)
    expect(await dims()).toEqual([])
  })

  it('counts each move of a live report into resolved on the UTC day of its update, and no other status change', async () => {
    await e.run(reportSql('p1', 1))
    await e.run(reportSql('p1', 2))
    await e.run(reportSql('p1', 3, { deleted_at: 1 }))
    await e.run(`UPDATE reports SET status = 'resolved', updated_at = ${LAST_MS_OF_MARCH_1} WHERE id IN ('r1', 'r3')`)
    await e.run(`UPDATE reports SET status = 'resolved', updated_at = ${LAST_MS_OF_MARCH_1 + 1} WHERE id = 'r2'`)
    await e.run(`UPDATE reports SET status = 'resolved', updated_at = ${LAST_MS_OF_MARCH_1 + 2} WHERE id = 'r2'`)
    await e.run(`UPDATE reports SET status = 'closed' WHERE id = 'r1'`)
    expect(await e.rows('SELECT project_id, day, n FROM analytics_daily_resolved ORDER BY day')).toEqual([
      { project_id: 'p1', day: '2026-03-01', n: 1 },
      { project_id: 'p1', day: '2026-03-02', n: 1 },
    ])
  })
})
