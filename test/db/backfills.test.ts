// Declared backfills (src/db/post-migrate.ts), run by migrate() when a module's table first appears in
// a database that already had rows: SQL statements, and rows computed in code (title words).
import { Database } from 'bun:sqlite'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../src/db/migrate'
import { databaseParts } from '../../src/modules/registry'
import { onSqlite } from '../helpers/pg-engine'

/** A migrated database with one account and projects created at the given times. */
function seeded(projects: [string, number][]) {
  const db = new Database(':memory:')
  db.exec('PRAGMA foreign_keys = ON')
  migrate(db, databaseParts)
  db.exec(`INSERT INTO users (id, email, name, created_at, updated_at) VALUES ('u1', 'o@x.example', 'Owner', 0, 0)`)
  db.exec(`INSERT INTO accounts (id, name, owner_id, plan, created_at, updated_at) VALUES ('a1', 'Studio', 'u1', 'self_hosted', 0, 0)`)
  for (const [p, at] of projects) db.exec(`INSERT INTO projects (id, account_id, name, slug, api_key, created_at, updated_at) VALUES ('${p}', 'a1', '${p}', '${p}', 'sk_${p}', ${at}, 0)`)
  return db
}

describe.skipIf(!onSqlite)('backfills of an upgraded database (SQLite: the migrations of a data directory)', () => {
  it('gives projects from before DSN ids theirs, oldest project first', () => {
    const db = seeded([['pb', 2], ['pa', 1], ['pc', 3]])
    db.exec('DROP TRIGGER projects_dsn_id_ai; DROP TABLE project_dsn_ids; UPDATE projects SET dsn_id = NULL')
    migrate(db, databaseParts)
    expect(db.query('SELECT id, dsn_id FROM projects ORDER BY dsn_id').all()).toEqual([
      { id: 'pa', dsn_id: 1 },
      { id: 'pb', dsn_id: 2 },
      { id: 'pc', dsn_id: 3 },
    ])
  })

  it('fills the title words of open reports row by row, so duplicates are found by them', () => {
    const db = seeded([['p1', 1]])
    for (const [n, title] of [[1, 'Crash in the Café'], [2, 'Audio stutters']] as const) {
      db.exec(`INSERT INTO reports (id, project_id, report_number, title, description, created_at, updated_at) VALUES ('r${n}', 'p1', ${n}, '${title}', 'd', 0, 0)`)
    }
    db.exec('DROP TRIGGER open_title_terms_ai; DROP TRIGGER open_title_terms_au; DROP TRIGGER open_title_terms_ad; DROP TABLE open_title_terms; UPDATE reports SET title_terms = NULL')
    migrate(db, databaseParts)
    expect(db.query('SELECT title_terms FROM reports ORDER BY report_number').all()).toEqual([{ title_terms: '["crash","cafe"]' }, { title_terms: '["audio","stutters"]' }])
    expect(db.query("SELECT report_number FROM open_title_terms WHERE term = 'cafe'").all()).toEqual([{ report_number: 1 }])
  })
})
