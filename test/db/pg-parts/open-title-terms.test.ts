// The open reports' title words kept by triggers (open-title-terms.ts, and its PostgreSQL form
// open-title-terms.pg.ts), which possible duplicates are looked up in.
import { expect, it } from 'vitest'
import { onBothEngines, reportSql } from '../../helpers/raw-engines'

onBothEngines('open title terms', (e) => {
  const terms = () =>
    e.rows<{ project_id: string; term: string; neg_seq: number; report_number: number; n_terms: number }>(
      'SELECT project_id, term, neg_seq, report_number, n_terms FROM open_title_terms ORDER BY project_id, neg_seq DESC, term',
    )

  it('holds the words of open and in-progress live reports only, following every change of the report', async () => {
    await e.run(reportSql('p1', 1, { title_terms: '["crash","menu"]' }))
    await e.run(reportSql('p1', 2, { title_terms: '["save","lost"]', status: 'resolved' }))
    await e.run(reportSql('p1', 3, { title_terms: '["audio"]', deleted_at: 1 }))
    await e.run(reportSql('p1', 4))
    expect(await terms()).toEqual([
      { project_id: 'p1', term: 'crash', neg_seq: -1, report_number: 1, n_terms: 2 },
      { project_id: 'p1', term: 'menu', neg_seq: -1, report_number: 1, n_terms: 2 },
    ])
    await e.run(`UPDATE reports SET title_terms = '["crash","options","menu"]' WHERE id = 'r1'`)
    await e.run(`UPDATE reports SET status = 'in_progress' WHERE id = 'r2'`)
    await e.run(`UPDATE reports SET deleted_at = NULL WHERE id = 'r3'`)
    await e.run(`UPDATE reports SET title_terms = '["fps"]' WHERE id = 'r4'`)
    await e.run(`UPDATE reports SET project_id = 'p2', report_number = 8 WHERE id = 'r3'`)
    expect(await terms()).toEqual([
      { project_id: 'p1', term: 'crash', neg_seq: -1, report_number: 1, n_terms: 3 },
      { project_id: 'p1', term: 'menu', neg_seq: -1, report_number: 1, n_terms: 3 },
      { project_id: 'p1', term: 'options', neg_seq: -1, report_number: 1, n_terms: 3 },
      { project_id: 'p1', term: 'lost', neg_seq: -2, report_number: 2, n_terms: 2 },
      { project_id: 'p1', term: 'save', neg_seq: -2, report_number: 2, n_terms: 2 },
      { project_id: 'p1', term: 'fps', neg_seq: -4, report_number: 4, n_terms: 1 },
      { project_id: 'p2', term: 'audio', neg_seq: -3, report_number: 8, n_terms: 1 },
    ])
    await e.run(`UPDATE reports SET status = 'closed' WHERE id = 'r1'`)
    await e.run(`UPDATE reports SET deleted_at = 5 WHERE id = 'r2'`)
    await e.run(`UPDATE reports SET title_terms = NULL WHERE id = 'r4'`)
    await e.run(`DELETE FROM reports WHERE id = 'r3'`)
    expect(await terms()).toEqual([])
  })
})
