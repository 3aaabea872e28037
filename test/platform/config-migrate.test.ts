import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config/config'
import { openSqlite } from '../../src/db/client'
import { migrate, SchemaTooNewError } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations.embedded'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'
import { databaseParts } from '../../src/modules/registry'
import { onSqlite } from '../helpers/pg-engine'

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({ port: 8080, host: '0.0.0.0', trustProxy: { hops: 0 }, defaultPlan: 'self_hosted', retentionDays: 90, replayRetentionDays: 30, logLevel: 'info', publicUrl: 'http://localhost:8080' })
    expect(c.dataDir.endsWith('glitchbox-data')).toBe(true)
  })

  it.each([
    ['PORT', 'eighty', /PORT/],
    ['PORT', '70000', /PORT/],
    ['GLITCHBOX_TRUST_PROXY', 'maybe', /GLITCHBOX_TRUST_PROXY/],
    ['GLITCHBOX_DEFAULT_PLAN', 'gold', /GLITCHBOX_DEFAULT_PLAN/],
    ['GLITCHBOX_SMTP_URL', 'http://mail', /GLITCHBOX_SMTP_URL/],
    ['GLITCHBOX_PUBLIC_URL', 'not a url', /GLITCHBOX_PUBLIC_URL/],
    ['GLITCHBOX_LOG_LEVEL', 'loud', /GLITCHBOX_LOG_LEVEL/],
    ['GLITCHBOX_PROVIDER_URL_STRIPE', 'nope', /GLITCHBOX_PROVIDER_URL_STRIPE/],
  ])('refuses %s=%s with a message naming the variable', (name, value, re) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(re)
  })

  it('lets serve flags override the environment and reads provider URL overrides', () => {
    const c = loadConfig({ PORT: '9000', GLITCHBOX_PROVIDER_URL_LINEAR: 'http://127.0.0.1:4000/' }, { port: '9100', 'trust-proxy': 'true' })
    expect(c.port).toBe(9100)
    expect(c.trustProxy).toEqual({ hops: 1 })
    expect(c.providerUrls.linear).toBe('http://127.0.0.1:4000')
  })
})

describe.skipIf(!onSqlite)('migrations (SQLite: migration files, pragmas)', () => {
  const opened: { dir: string; db: Database }[] = []
  const freshDb = () => {
    const dir = tempDir('mig')
    const db = openSqlite(join(dir, 'glitchbox.db'))
    opened.push({ dir, db })
    return db
  }
  afterEach(() => {
    for (const { dir, db } of opened.splice(0)) {
      db.close()
      removeTempDir(dir)
    }
  })

  it('creates the schema once and is a no-op afterwards', () => {
    const db = freshDb()
    expect(migrate(db, databaseParts).applied).toEqual(embeddedMigrations.map((m) => m.tag))
    expect(migrate(db, databaseParts).applied).toEqual([])
    const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type='table'").all().map((r) => r.name)
    expect(tables).toEqual(expect.arrayContaining(['users', 'projects', 'reports', 'jobs', 'reports_fts']))
  })

  it('sets the pragmas a server needs', () => {
    const db = freshDb()
    const pragma = (name: string) => Object.values(db.query(`PRAGMA ${name}`).get() as object)[0]
    expect(pragma('journal_mode')).toBe('wal')
    expect(pragma('synchronous')).toBe(1) // NORMAL
    expect(pragma('foreign_keys')).toBe(1)
    expect(pragma('busy_timeout')).toBe(5000)
  })

  it('refuses a database written by a newer version', () => {
    const db = freshDb()
    migrate(db, databaseParts)
    db.query('INSERT INTO glitchbox_migrations (tag, hash, applied_at) VALUES (?, ?, ?)').run('9999_future', 'x', Date.now())
    expect(() => migrate(db, databaseParts)).toThrow(SchemaTooNewError)
    expect(() => migrate(db, databaseParts)).toThrow(/newer Glitchbox/)
  })

  it('refuses a database whose applied migration was since edited', () => {
    const db = freshDb()
    migrate(db, databaseParts)
    const edited = embeddedMigrations.map((m, i) => (i === 0 ? { ...m, hash: 'edited' } : m))
    expect(() => migrate(db, databaseParts, edited)).toThrow(/must never be edited/)
  })

  it('rolls back a failing migration as a whole', () => {
    const db: Database = freshDb()
    const bad = [{ tag: '0000_bad', hash: 'h', sql: 'CREATE TABLE a (x int);--> statement-breakpoint\nCREATE TABLE a (x int);' }]
    expect(() => migrate(db, databaseParts, bad)).toThrow()
    expect(db.query("SELECT name FROM sqlite_master WHERE name='a'").get()).toBeNull()
  })
})
