// Issue 25: "existing projects keep today's behaviour by migration". A database from before the
// publish modes is upgraded: its projects publish every report (auto-filed ones too), and reports
// the team had touched get `triaged_at` from their activity; new projects default to `triaged`.
import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, it } from 'vitest'
import { migrate } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations.embedded'
import { PUBLICATION_MIGRATION } from '../../src/modules/public/publication.backfill'
import { databaseParts } from '../../src/modules/registry'
import { onSqlite } from '../helpers/pg-engine'

let db: Database
afterEach(() => db?.close())

/** A database at the schema just before the publication migration, as an older server left it. */
function olderDatabase(): Database {
  const d = new Database(':memory:')
  d.exec('CREATE TABLE glitchbox_migrations (tag TEXT PRIMARY KEY NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL)')
  const older = embeddedMigrations.slice(
    0,
    embeddedMigrations.findIndex((m) => m.tag === PUBLICATION_MIGRATION),
  )
  expect(older.length).toBeGreaterThan(20)
  for (const m of older) {
    for (const stmt of m.sql.split('--> statement-breakpoint')) if (stmt.trim()) d.exec(stmt)
    d.query('INSERT INTO glitchbox_migrations (tag, hash, applied_at) VALUES (?, ?, ?)').run(m.tag, m.hash, 0)
  }
  return d
}

const settingsOf = (d: Database, projectId: string) =>
  JSON.parse(d.query<{ value: string }, [string]>("SELECT value FROM project_settings WHERE project_id = ? AND kind = 'tracker'").get(projectId)?.value ?? 'null')

describe.skipIf(!onSqlite)('the publication migration (SQLite: migration on a SQLite file)', () => {
  it('keeps what the public pages of existing projects showed and marks the reports the team had touched', () => {
    db = olderDatabase()
    db.exec(`INSERT INTO users (id, email, name, created_at, updated_at) VALUES ('u1', 'o@x.example', 'Owner', 0, 0)`)
    db.exec(`INSERT INTO accounts (id, name, owner_id, plan, created_at, updated_at) VALUES ('a1', 'Studio', 'u1', 'self_hosted', 0, 0)`)
    for (const p of ['p-with-settings', 'p-without-settings'])
      db.exec(`INSERT INTO projects (id, account_id, name, slug, api_key, created_at, updated_at) VALUES ('${p}', 'a1', '${p}', '${p}', 'sk_live_${p}', 0, 0)`)
    db.exec(`INSERT INTO project_settings (project_id, kind, value, updated_at) VALUES ('p-with-settings', 'tracker', '{"enabled":true,"page_title":"Known issues","allow_upvotes":true}', 0)`)
    const report = (id: string, n: number) =>
      db.exec(`INSERT INTO reports (id, project_id, report_number, title, description, created_at, updated_at) VALUES ('${id}', 'p-with-settings', ${n}, 'Bug ${n}', 'x', 0, 0)`)
    report('r-status', 1)
    report('r-label', 2)
    report('r-public-reply', 3)
    report('r-internal-note', 4)
    report('r-system-reopen', 5)
    report('r-priority', 6)
    const act = (reportId: string, actor: string | null, action: string, field: string | null, value: string | null, at: number) =>
      db.query('INSERT INTO activity (project_id, report_id, actor_id, action, field, new_value, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run('p-with-settings', reportId, actor, action, field, value, at)
    act('r-status', 'u1', 'updated', 'status', 'resolved', 2000)
    act('r-status', 'u1', 'updated', 'status', 'open', 3000)
    act('r-label', 'u1', 'labeled', 'labels', 'Confirmed', 4000)
    act('r-public-reply', 'u1', 'commented', null, 'public', 5000)
    act('r-internal-note', 'u1', 'commented', null, 'internal', 6000)
    act('r-system-reopen', null, 'updated', 'status', 'open', 7000)
    act('r-priority', 'u1', 'updated', 'priority', 'high', 8000)

    const { applied } = migrate(db, databaseParts)
    expect(applied[0]).toBe(PUBLICATION_MIGRATION)

    expect(settingsOf(db, 'p-with-settings')).toEqual({ enabled: true, page_title: 'Known issues', allow_upvotes: true, publish: 'all', include_auto_filed: true })
    expect(settingsOf(db, 'p-without-settings')).toEqual({ publish: 'all', include_auto_filed: true })
    const triaged = Object.fromEntries(db.query<{ id: string; at: number | null }, []>('SELECT id, triaged_at AS at FROM reports').all().map((r) => [r.id, r.at]))
    expect(triaged).toEqual({ 'r-status': 2000, 'r-label': 4000, 'r-public-reply': 5000, 'r-internal-note': null, 'r-system-reopen': null, 'r-priority': null })
    // Run once: a later start changes nothing.
    db.exec(`UPDATE project_settings SET value = json_set(value, '$.publish', 'triaged')`)
    expect(migrate(db, databaseParts).applied).toEqual([])
    expect(settingsOf(db, 'p-with-settings').publish).toBe('triaged')
  })

  it('computes auto_filed for rows already there', () => {
    db = olderDatabase()
    db.exec(`INSERT INTO users (id, email, name, created_at, updated_at) VALUES ('u1', 'o@x.example', 'Owner', 0, 0)`)
    db.exec(`INSERT INTO accounts (id, name, owner_id, plan, created_at, updated_at) VALUES ('a1', 'Studio', 'u1', 'self_hosted', 0, 0)`)
    db.exec(`INSERT INTO projects (id, account_id, name, slug, api_key, created_at, updated_at) VALUES ('p', 'a1', 'p', 'p', 'sk_live_p', 0, 0)`)
    const insert = db.query('INSERT INTO reports (id, project_id, report_number, title, description, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, 0)')
    insert.run('player', 'p', 1, 'Door stuck', 'It will not open', 'user')
    insert.run('sdk', 'p', 2, '[Error] NullReferenceException', 'boom', 'system')
    insert.run('trace-first', 'p', 3, 'Crash', '--- Stack Trace ---\nat Main', 'user')
    insert.run('trace-later', 'p', 4, 'Crash', 'It crashed\r\n--- Stack Trace ---\nat Main', 'user')
    insert.run('mention', 'p', 5, 'Crash', 'the log said --- Stack Trace --- inline', 'user')
    migrate(db, databaseParts)
    const auto = Object.fromEntries(db.query<{ id: string; a: number }, []>('SELECT id, auto_filed AS a FROM reports').all().map((r) => [r.id, r.a]))
    expect(auto).toEqual({ player: 0, sdk: 1, 'trace-first': 1, 'trace-later': 1, mention: 0 })
  })
})
