// DSN ids given by a trigger to every new project (project-dsn.ts, and its PostgreSQL form project-dsn.pg.ts):
// never given twice, even after the project that had one is deleted.
import { expect, it } from 'vitest'
import { onBothEngines } from '../../helpers/raw-engines'

onBothEngines('project DSN ids', (e) => {
  const project = (id: string, dsnId = 'NULL') =>
    e.run(`INSERT INTO projects (id, account_id, name, slug, api_key, dsn_id, created_at, updated_at) VALUES ('${id}', 'a1', '${id}', '${id}', 'k-${id}', ${dsnId}, 0, 0)`)

  it('numbers new projects in order, never reuses a deleted project’s id, and keeps an id given explicitly', async () => {
    await e.run(`DELETE FROM projects WHERE id = 'p2'`)
    await project('p3')
    await project('p4', '50')
    await project('p5')
    expect(await e.rows('SELECT id, dsn_id FROM projects ORDER BY id')).toEqual([
      { id: 'p1', dsn_id: 1 },
      { id: 'p3', dsn_id: 3 },
      { id: 'p4', dsn_id: 50 },
      { id: 'p5', dsn_id: 4 },
    ])
  })
})
