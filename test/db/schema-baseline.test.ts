// A new database is created from the schema baseline in one step (src/db/migrate.ts); it must be
// the very database that replaying every migration builds, so the two paths can never drift.
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from 'bun:sqlite'
import { openSqlite } from '../../src/db/client'
import { migrate } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations.embedded'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'
import { databaseParts } from '../../src/modules/registry'

let dir: string
beforeEach(() => {
  dir = tempDir('baseline')
})
afterEach(() => removeTempDir(dir))

const schemaOf = (db: Database) => {
  const objects = db.query<{ type: string; name: string; tbl_name: string; sql: string | null }, []>("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name <> 'sqlite_sequence' ORDER BY name").all()
  const columns = objects.filter((o) => o.type === 'table').map((o) => [o.name, db.query(`PRAGMA table_xinfo("${o.name}")`).all()])
  return { objects, columns }
}

describe('a new database', () => {
  it('built from the baseline has the same tables, columns, indexes and triggers as one built by replaying every migration', () => {
    const fromBaseline = openSqlite(join(dir, 'baseline.db'))
    const replayed = openSqlite(join(dir, 'replayed.db'))
    expect(migrate(fromBaseline, databaseParts).applied).toEqual(embeddedMigrations.map((m) => m.tag))
    expect(migrate(replayed, databaseParts, embeddedMigrations, null).applied).toEqual(embeddedMigrations.map((m) => m.tag))
    expect(schemaOf(fromBaseline)).toEqual(schemaOf(replayed))
    fromBaseline.close()
    replayed.close()
  })

  it('records every migration as applied, so the next start applies none', () => {
    const db = openSqlite(join(dir, 'g.db'))
    migrate(db, databaseParts)
    expect(migrate(db, databaseParts).applied).toEqual([])
    expect(db.query<{ n: number }, []>('SELECT count(*) AS n FROM glitchbox_migrations').get()!.n).toBe(embeddedMigrations.length)
    db.close()
  })

  it('is not taken for new when it already holds tables: the history is replayed onto them', () => {
    const db = openSqlite(join(dir, 'g.db'))
    db.exec('CREATE TABLE jobs (id INTEGER PRIMARY KEY)')
    expect(() => migrate(db, databaseParts)).toThrow(/already exists/)
    db.close()
  })
})
