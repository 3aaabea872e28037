// The report_facets table (report-facets.ts, and its PostgreSQL form report-facets.pg.ts): one row per
// (project, kind, value, report), values equal without case, the project's rows gone with it.
import { expect, it } from 'vitest'
import { onBothEngines } from '../../helpers/raw-engines'

onBothEngines('report facets', (e) => {
  const add = (project: string, kind: number, value: string, seq: number) =>
    e.run(`INSERT INTO report_facets (project_id, kind, value, report_seq) VALUES ('${project}', ${kind}, '${value}', ${seq}) ON CONFLICT DO NOTHING`)

  it('keeps one row per value whatever its case, finds it in any case, and drops a deleted project’s rows', async () => {
    await add('p1', 2, 'Linux', 1)
    await add('p1', 2, 'linux', 1)
    await add('p1', 2, 'LINUX', 2)
    await add('p1', 1, '1.3.0', 1)
    await add('p2', 2, 'windows', 101)
    expect(await e.rows(`SELECT value, report_seq FROM report_facets WHERE project_id = 'p1' AND kind = 2 AND value = 'linux' ORDER BY report_seq`)).toEqual([
      { value: 'Linux', report_seq: 1 },
      { value: 'LINUX', report_seq: 2 },
    ])
    // The filter choices' skip scan: the next value past `LINUW` is linux, in one of its spellings.
    expect(await e.rows(`SELECT lower(min(value)) AS v FROM report_facets WHERE project_id = 'p1' AND kind = 2 AND value > 'LINUW'`)).toEqual([{ v: 'linux' }])
    await e.run(`DELETE FROM projects WHERE id = 'p2'`)
    expect(await e.rows(`SELECT CAST(count(*) AS integer) AS n FROM report_facets WHERE project_id = 'p2'`)).toEqual([{ n: 0 }])
  })
})
