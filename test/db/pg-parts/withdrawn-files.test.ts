// Files of soft-deleted reports withdrawn by triggers (src/files/withdrawn-files.ts, and its PostgreSQL
// form withdrawn-files.pg.ts): the same deletes and uploads withdraw the same keys on both engines.
import { expect, it } from 'vitest'
import { onBothEngines, reportSql } from '../../helpers/raw-engines'

onBothEngines('withdrawn files', (e) => {
  const attachment = (id: string, report: string, key: string) =>
    e.run(`INSERT INTO attachments (id, report_id, project_id, file_key, file_name, file_size, created_at) VALUES ('${id}', '${report}', 'p1', '${key}', 'f', 1, 0)`)
  const replay = (id: string, report: string, key: string) =>
    e.run(`INSERT INTO session_replays (id, project_id, report_id, file_key, file_size, mime_type, created_at) VALUES ('${id}', 'p1', '${report}', '${key}', 1, 'application/json', 0)`)
  const occurrence = (id: string, report: string, key: string | null) =>
    e.run(`INSERT INTO report_occurrences (id, report_id, project_id, screenshot_key, created_at) VALUES ('${id}', '${report}', 'p1', ${key ? `'${key}'` : 'NULL'}, 0)`)
  const withdrawn = async () => (await e.rows<{ key: string }>('SELECT key FROM withdrawn_files ORDER BY key')).map((r) => r.key)

  it('withdraws every file of a report when it is soft-deleted, and nothing of live reports', async () => {
    await e.run(reportSql('p1', 1, { screenshot_key: 'shot-1' }))
    await e.run(reportSql('p1', 2, { screenshot_key: 'shot-2' }))
    await occurrence('o1', 'r1', 'occ-1')
    await occurrence('o2', 'r1', null)
    await attachment('a1', 'r1', 'att-1')
    await attachment('a2', 'r2', 'att-2')
    await replay('s1', 'r1', 'replay-1')
    expect(await withdrawn()).toEqual([])
    await e.run(`UPDATE reports SET deleted_at = 1 WHERE id = 'r1'`)
    await e.run(`UPDATE reports SET deleted_at = 2 WHERE id = 'r1'`)
    expect(await withdrawn()).toEqual(['att-1', 'occ-1', 'replay-1', 'shot-1'])
  })

  it('withdraws a file written to a report already deleted, and forgets a key once its file is removed', async () => {
    await e.run(reportSql('p1', 1, { deleted_at: 1 }))
    await e.run(reportSql('p1', 2))
    await attachment('a1', 'r1', 'late-att')
    await replay('s1', 'r1', 'late-replay')
    await occurrence('o1', 'r1', 'late-occ')
    await occurrence('o2', 'r1', null)
    await attachment('a2', 'r2', 'live-att')
    expect(await withdrawn()).toEqual(['late-att', 'late-occ', 'late-replay'])
    await e.run(`INSERT INTO files (key, mime_type, size, file_name, created_at) VALUES ('late-att', 'image/png', 1, 'f', 0), ('live-att', 'image/png', 1, 'f', 0)`)
    await e.run(`DELETE FROM files WHERE key IN ('late-att', 'live-att')`)
    expect(await withdrawn()).toEqual(['late-occ', 'late-replay'])
  })
})
