// Issue 28 finding 10: `javascript:` links stored before every URL had to be http(s) (issue 21,
// src/net/web-url.ts) were still returned verbatim (`GET …/bugs/1/issue`). A migration empties every
// stored link that is not http(s), in each table and settings field that holds one, and keeps the rest.
import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, it } from 'vitest'
import { migrate } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations.embedded'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { onSqlite } from '../helpers/pg-engine'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { databaseParts } from '../../src/modules/registry'

/** The migration under test, by name (the lead renumbers migrations at merge). */
const migration = () => embeddedMigrations.find((m) => m.tag.endsWith('_clean_stored_urls'))!
const HOSTILE = ['javascript:alert(document.cookie)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', '//evil.example/x', 'https://']
const GOOD = 'HTTPS://cdn.example/logo.png'

let db: Database | undefined
let t: TestApp | undefined
afterEach(() => {
  db?.close()
  t?.close()
  db = t = undefined
})

/** A database at the schema just before the migration, as an older server left it (foreign keys off: rows stand alone). */
function olderDatabase(): Database {
  const d = new Database(':memory:')
  d.exec('CREATE TABLE glitchbox_migrations (tag TEXT PRIMARY KEY NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL)')
  for (const m of embeddedMigrations.slice(0, embeddedMigrations.indexOf(migration()))) {
    for (const stmt of m.sql.split('--> statement-breakpoint')) if (stmt.trim()) d.exec(stmt)
    d.query('INSERT INTO glitchbox_migrations (tag, hash, applied_at) VALUES (?, ?, ?)').run(m.tag, m.hash, 0)
  }
  // After the migrations: those that rebuild a table turn foreign keys back on.
  d.exec('PRAGMA foreign_keys = OFF')
  return d
}

describe('the stored-URL clean-up migration', () => {
  it('empties every stored link that is not http(s) and keeps http(s) ones and empty ones', () => {
    db = olderDatabase()
    const values = [...HOSTILE, GOOD, '']
    values.forEach((url, i) => {
      db!.query('INSERT INTO users (id, email, name, avatar_url, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0)').run(`u${i}`, `u${i}@x.example`, 'U', url)
      db!.query("INSERT INTO projects (id, account_id, name, slug, api_key, website_url, logo_url, created_at, updated_at) VALUES (?, 'a', 'P', ?, ?, ?, ?, 0, 0)").run(`p${i}`, `p${i}`, `sk_live_p${i}`, url, url)
      db!.query("INSERT INTO git_issue_links (id, report_id, project_id, provider, issue_number, issue_url, issue_title, created, created_at) VALUES (?, ?, ?, 'github', 7, ?, 'Crash', 1, 0)").run(`g${i}`, `r${i}`, `p${i}`, url)
      db!.query("INSERT INTO integration_links (id, report_id, provider, external_id, url, title, created_at, updated_at) VALUES (?, ?, 'linear', 'GAME-1', ?, 'Crash', 0, 0)").run(`l${i}`, `r${i}`, url)
      db!.query("INSERT INTO report_imports (report_id, project_id, external_url, import_id, imported_at) VALUES (?, ?, ?, 'imp', 0)").run(`r${i}`, `p${i}`, url)
      for (const [kind, field] of [['tracker', 'logo_url'], ['branding', 'logo_url'], ['widget', 'background_image_url']])
        db!.query('INSERT INTO project_settings (project_id, kind, value, updated_at) VALUES (?, ?, ?, 0)').run(`p${i}`, kind, JSON.stringify({ [field]: url, page_title: 'Known issues' }))
    })

    expect(migrate(db, databaseParts).applied).toEqual(embeddedMigrations.slice(embeddedMigrations.indexOf(migration())).map((m) => m.tag))

    const kept = (url: string) => (url === GOOD ? GOOD : '')
    const column = (sql: string) => db!.query<{ v: string | null }, []>(sql).all().map((r) => r.v)
    expect(column('SELECT avatar_url AS v FROM users ORDER BY rowid')).toEqual(values.map((u) => (u === GOOD ? GOOD : u === '' ? '' : null)))
    expect(column('SELECT website_url AS v FROM projects ORDER BY rowid')).toEqual(values.map(kept))
    expect(column('SELECT logo_url AS v FROM projects ORDER BY rowid')).toEqual(values.map(kept))
    expect(column('SELECT issue_url AS v FROM git_issue_links ORDER BY rowid')).toEqual(values.map(kept))
    expect(column('SELECT url AS v FROM integration_links ORDER BY rowid')).toEqual(values.map(kept))
    expect(column('SELECT external_url AS v FROM report_imports ORDER BY rowid')).toEqual(values.map((u) => (u === GOOD ? GOOD : u === '' ? '' : null)))
    // The links keep their issue, and the settings their other fields.
    expect(column('SELECT DISTINCT issue_title AS v FROM git_issue_links')).toEqual(['Crash'])
    for (const kind of ['tracker', 'branding', 'widget']) {
      const settings = column(`SELECT value AS v FROM project_settings WHERE kind = '${kind}' ORDER BY rowid`).map((v) => JSON.parse(v!))
      expect(settings.map((s) => s.logo_url ?? s.background_image_url)).toEqual(values.map(kept))
      expect(settings.every((s) => s.page_title === 'Known issues')).toBe(true)
    }
  })

  it.skipIf(!onSqlite)('GET …/bugs/{n}/issue no longer returns a javascript: link stored before the rule (SQLite: migration)', async () => {
    t = createTestApp()
    const owner = await createUser(t)
    const project = await createProject(t, owner)
    const report = await createReportIn(t, project)
    t.sqlite
      .query("INSERT INTO git_issue_links (id, report_id, project_id, provider, issue_number, issue_url, issue_title, created, created_at) VALUES ('g1', ?, ?, 'github', 7, 'javascript:alert(document.cookie)', 'Crash', 0, 0)")
      .run(report.id, project.id)
    const before = await t.request('GET', `/api/projects/${project.slug}/bugs/${report.reportNumber}/issue`, { token: owner.token })
    expect(before.body.data.issue).toMatchObject({ issue_number: 7, issue_url: 'javascript:alert(document.cookie)' })

    for (const stmt of migration().sql.split('--> statement-breakpoint')) if (stmt.trim()) t.sqlite.exec(stmt)
    const after = await t.request('GET', `/api/projects/${project.slug}/bugs/${report.reportNumber}/issue`, { token: owner.token })
    expect(after.status).toBe(200)
    expect(after.body.data.issue).toMatchObject({ issue_number: 7, issue_url: '', issue_title: 'Crash' })
  })
})
