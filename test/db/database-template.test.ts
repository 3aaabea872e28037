// The compiled binary starts a new data directory's database as a copy of a template made at build time
// (src/db/database-template.ts). The copy must be the very database migrate() makes of an empty file, and
// it must never replace a database that is already there.
import { existsSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Database } from 'bun:sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSqlite } from '../../src/db/client'
import { createDatabaseFile, writeDatabaseTemplate } from '../../src/db/database-template'
import { migrate } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations.embedded'
import { databaseParts } from '../../src/modules/registry'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'

let dir: string
let template: string
beforeEach(() => {
  dir = tempDir('db-template')
  template = join(dir, 'glitchbox.dbtemplate')
  writeDatabaseTemplate(template, databaseParts)
})
afterEach(() => removeTempDir(dir))

const schemaOf = (db: Database) => {
  const objects = db.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").all()
  const pragmas = ['auto_vacuum', 'journal_mode', 'page_size', 'user_version', 'encoding'].map((p) => db.query(`PRAGMA ${p}`).get())
  const migrations = db.query('SELECT tag, hash FROM glitchbox_migrations ORDER BY tag').all()
  return { objects, pragmas, migrations }
}

/** Opens and migrates `file` as a server does (src/deps.ts). */
const opened = (file: string) => {
  const db = openSqlite(file)
  const { applied } = migrate(db, databaseParts)
  return { db, applied }
}

describe('a new database from the template', () => {
  it('is copied whole, owner-only, before SQLite opens it: every table there and every migration marked applied', () => {
    const file = join(dir, 'new.db')
    createDatabaseFile(file, template)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(file).size).toBe(statSync(template).size)
    const { db, applied } = opened(file)
    // Nothing left to apply: the copy carried the history.
    expect(applied).toEqual([])
    expect(db.query('SELECT count(*) AS n FROM glitchbox_migrations').get()).toEqual({ n: embeddedMigrations.length })
    db.close()
  })

  it('is the database migrate() makes of an empty file: same tables, indexes, triggers, settings and history', () => {
    const copied = join(dir, 'copied.db')
    createDatabaseFile(copied, template)
    const empty = join(dir, 'empty.db')
    createDatabaseFile(empty, null)
    expect(statSync(empty).size).toBe(0)
    const a = opened(copied)
    const b = opened(empty)
    expect(b.applied).toEqual(embeddedMigrations.map((m) => m.tag))
    expect(schemaOf(a.db)).toEqual(schemaOf(b.db))
    a.db.close()
    b.db.close()
  })

  it('never replaces a database that is there, even an empty file', () => {
    const file = join(dir, 'kept.db')
    const first = opened(file)
    first.db.run("INSERT INTO glitchbox_migrations (tag, hash, applied_at) VALUES ('zz_marker', 'x', 1)")
    first.db.close()
    createDatabaseFile(file, template)
    const db = openSqlite(file)
    expect(db.query("SELECT tag FROM glitchbox_migrations WHERE tag = 'zz_marker'").get()).toEqual({ tag: 'zz_marker' })
    db.close()

    const emptyFile = join(dir, 'empty-kept.db')
    writeFileSync(emptyFile, '')
    createDatabaseFile(emptyFile, template)
    expect(statSync(emptyFile).size).toBe(0)
  })

  it('is not used beside a WAL left without its database: SQLite would replay that WAL into the copy', () => {
    const file = join(dir, 'orphan.db')
    writeFileSync(`${file}-wal`, 'left by an earlier database')
    createDatabaseFile(file, template)
    expect(statSync(file).size).toBe(0)
  })

  it('starts empty when the template cannot be read, and leaves no copy behind', () => {
    const file = join(dir, 'fallback.db')
    createDatabaseFile(file, join(dir, 'missing.dbtemplate'))
    expect(statSync(file).size).toBe(0)
    expect(existsSync(`${file}.template-${process.pid}`)).toBe(false)
  })
})
