// The report_facets table (report-facets.ts, and its PostgreSQL form report-facets.pg.ts): one row per
// (project, kind, value, report), values equal without case, the project's rows gone with it.
import { expect, it } from 'vitest'
import { reportFacetSetsPgSql } from '../../../src/modules/reports/report-facets.pg'
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

// PostgreSQL's facet sets (report-facets.pg.ts): each report's ids of its version, platform, screenshot
// (and runtime, browser, environment) facets, which the list intersects in a GIN index. They must follow
// report_facets through every write, or a list filtered by two of them would show wrong reports.
onBothEngines('report facet sets', (e) => {
  const setsOf = async () => {
    const rows = await e.rows<{ report_seq: number; terms: string }>(`
      SELECT s.report_seq, string_agg(v.kind || ':' || v.value, ',' ORDER BY v.kind, v.value) AS terms
      FROM report_facet_sets s CROSS JOIN LATERAL unnest(s.ids) AS i(id) JOIN report_facet_values v ON v.id = i.id
      GROUP BY s.report_seq ORDER BY s.report_seq`)
    return Object.fromEntries(rows.map((r) => [r.report_seq, r.terms]))
  }
  const matching = async (project: string, terms: [number, string][]) =>
    (
      await e.rows<{ report_seq: number }>(`SELECT report_seq FROM report_facet_sets WHERE ids @> ARRAY[${terms
        .map(([kind, value]) => `(SELECT id FROM report_facet_values WHERE project_id = '${project}' AND kind = ${kind} AND value = '${value}')`)
        .join(', ')}]::bigint[] ORDER BY report_seq`)
    ).map((r) => r.report_seq)

  it('follow the facet rows inserted and deleted, name a value once whatever its case, and leave with the project', async (ctx) => {
    if (e.name !== 'postgres') ctx.skip()
    await e.run(`INSERT INTO report_facets (project_id, kind, value, report_seq) VALUES ('p1', 1, '1.3.0', 1), ('p1', 2, 'Linux', 1), ('p1', 3, 'player-9', 1), ('p1', 4, '', 1), ('p1', 1, '1.3.0', 2), ('p1', 2, 'linux', 2), ('p2', 2, 'Linux', 101)`)
    // Players stay out; `linux` is the value first seen as `Linux`; p2's Linux is another value.
    expect(await setsOf()).toEqual({ 1: '1:1.3.0,2:Linux,4:', 2: '1:1.3.0,2:Linux', 101: '2:Linux' })
    expect(await matching('p1', [[1, '1.3.0'], [2, 'LINUX']])).toEqual([1, 2])
    expect(await matching('p1', [[2, 'linux'], [4, '']])).toEqual([1])
    expect(await matching('p1', [[1, '9.9.9'], [2, 'linux']])).toEqual([])
    // A later row adds its id to the set; a repeated one changes nothing.
    await e.run(`INSERT INTO report_facets (project_id, kind, value, report_seq) VALUES ('p1', 4, '', 2), ('p1', 1, '1.3.0', 2) ON CONFLICT DO NOTHING`)
    expect(await matching('p1', [[2, 'linux'], [4, '']])).toEqual([1, 2])
    // Rows taken (a split moving the last Linux occurrence out, a report deleted) take their ids; an empty set goes.
    await e.run(`DELETE FROM report_facets WHERE project_id = 'p1' AND report_seq = 2 AND kind = 2`)
    expect(await setsOf()).toMatchObject({ 2: '1:1.3.0,4:' })
    await e.run(`DELETE FROM report_facets WHERE report_seq = 1`)
    expect(Object.keys(await setsOf())).toEqual(['2', '101'])
    await e.run(`DELETE FROM projects WHERE id = 'p2'`)
    expect(Object.keys(await setsOf())).toEqual(['2'])
    expect(await e.rows(`SELECT CAST(count(*) AS integer) AS n FROM report_facet_values WHERE project_id = 'p2'`)).toEqual([{ n: 0 }])
  })

  // Each set holds a copy of its report's search document, so the list intersects a word with a facet
  // in the sets' index: a stale copy would list a report under words it no longer has.
  const report = (seq: number, title: string) =>
    e.run(`INSERT INTO reports (seq, id, project_id, report_number, title, description, created_at, updated_at) VALUES (${seq}, 'r${seq}', 'p1', ${seq}, '${title}', 'd', 0, 0)`)
  const withWord = async (word: string, version: string) =>
    (await e.rows<{ report_seq: number }>(`SELECT report_seq FROM report_facet_sets WHERE doc @@ to_tsquery('simple', '${word}')
      AND ids @> ARRAY[(SELECT id FROM report_facet_values WHERE project_id = 'p1' AND kind = 1 AND value = '${version}')]::bigint[] ORDER BY report_seq`)).map((r) => r.report_seq)

  it("copy their report's search document, and follow edits of its title and description", async (ctx) => {
    if (e.name !== 'postgres') ctx.skip()
    await report(1, 'Crash on load')
    await report(2, 'Freeze at the boss')
    await report(3, 'Crash in the menu')
    await e.run(`INSERT INTO report_facets (project_id, kind, value, report_seq) VALUES ('p1', 1, '1.3.0', 1), ('p1', 1, '1.3.0', 2), ('p1', 1, '1.4.0', 3)`)
    expect(await withWord('crash', '1.3.0')).toEqual([1])
    await e.run(`UPDATE reports SET title = 'Crash at the boss' WHERE seq = 2`)
    await e.run(`UPDATE reports SET title = 'Stutter on load' WHERE seq = 1`)
    expect(await withWord('crash', '1.3.0')).toEqual([2])
    await e.run(`UPDATE reports SET description = 'then a crash' WHERE seq = 1`)
    expect(await withWord('crash', '1.3.0')).toEqual([1, 2])
    // A facet added later (a new version seen) keeps the document.
    await e.run(`INSERT INTO report_facets (project_id, kind, value, report_seq) VALUES ('p1', 1, '1.3.0', 3)`)
    expect(await withWord('crash', '1.3.0')).toEqual([1, 2, 3])
    expect(await withWord('menu', '1.4.0')).toEqual([3])
  })

  it('give sets of an earlier version, made without the document, their reports\' documents once', async (ctx) => {
    if (e.name !== 'postgres') ctx.skip()
    await report(1, 'Crash on load')
    await report(2, 'Freeze at the boss')
    await e.run(`INSERT INTO report_facets (project_id, kind, value, report_seq) VALUES ('p1', 1, '1.3.0', 1), ('p1', 1, '1.3.0', 2)`)
    await e.run('DROP INDEX report_facet_sets_ids_doc')
    await e.run('ALTER TABLE report_facet_sets DROP COLUMN doc')
    await e.run('CREATE INDEX report_facet_sets_ids ON report_facet_sets USING gin (ids)')
    for (const statement of reportFacetSetsPgSql) await e.run(statement)
    expect(await withWord('crash', '1.3.0')).toEqual([1])
    expect(await e.rows(`SELECT indexname FROM pg_indexes WHERE tablename = 'report_facet_sets' AND indexname LIKE '%ids%' ORDER BY 1`)).toEqual([{ indexname: 'report_facet_sets_ids_doc' }])
  })

  it('are filled once from the facets a database already has (an upgrade, a bulk load, a copy from SQLite)', async (ctx) => {
    if (e.name !== 'postgres') ctx.skip()
    await e.run(`ALTER TABLE report_facets DISABLE TRIGGER USER`)
    await e.run(`INSERT INTO report_facets (project_id, kind, value, report_seq) VALUES ('p1', 1, '1.3.0', 1), ('p1', 2, 'Linux', 1), ('p1', 2, 'linux', 2), ('p1', 3, 'player-9', 3)`)
    await e.run(`ALTER TABLE report_facets ENABLE TRIGGER USER`)
    expect(await setsOf()).toEqual({})
    for (const statement of reportFacetSetsPgSql) await e.run(statement)
    expect(await setsOf()).toEqual({ 1: '1:1.3.0,2:Linux', 2: '2:Linux' })
    // Run again at every start: it adds nothing once the sets exist.
    for (const statement of reportFacetSetsPgSql) await e.run(statement)
    expect(await e.rows(`SELECT CAST(count(*) AS integer) AS n FROM report_facet_values`)).toEqual([{ n: 2 }])
  })
})
