import { closeSync, existsSync, linkSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { openSqlite } from './client'
import { migrate } from './migrate'
import type { DatabaseParts } from './post-migrate'

/**
 * A new SQLite database starts as a copy of a template the build makes (scripts/build.ts): the schema
 * every embedded migration builds, their history marked applied, the modules' triggers and FTS tables:
 * what migrate() makes of an empty file, made once at build time. Copying its ~1.3 MB takes ~1 ms where
 * creating its ~250 tables, indexes and triggers took ~20 ms of a server's first start (issue 30). Only
 * the compiled binary carries the template; from source (`npm start`, tests) the file starts empty and
 * migrate() creates the schema, as it does whenever there is no template.
 */

/** The database file's mode (see data-dir.ts): its owner's alone. */
const DB_FILE_MODE = 0o600

/** Writes the template to `path`, replacing any earlier one: the database migrate() makes of an empty file. */
export function writeDatabaseTemplate(path: string, parts: DatabaseParts[]): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true })
  const sqlite = openSqlite(path)
  try {
    migrate(sqlite, parts)
  } finally {
    // The last connection's close folds the WAL into the file and removes it: the template is one file.
    sqlite.close()
  }
}

/** The template embedded in the compiled binary, or null (from source). */
function embeddedTemplate(): string | null {
  if (!Bun.isStandaloneExecutable) return null
  return (require('./embedded-template') as typeof import('./embedded-template')).DATABASE_TEMPLATE
}

/**
 * Creates the database file `dbFile`, owner-only, unless it exists: a copy of `template` (by default the
 * binary's), else an empty file for migrate() to fill. Either way the file appears at once and whole
 * (the copy is written beside it, then linked in), so a command started at the same moment never opens
 * half a copy, and an existing file is never replaced. A WAL left without its database keeps the empty
 * start: SQLite replays a WAL into the file it finds, and the template is not the database it came from.
 */
export function createDatabaseFile(dbFile: string, template: string | null = embeddedTemplate()): void {
  if (existsSync(dbFile)) return
  if (template && !existsSync(`${dbFile}-wal`) && linkCopy(template, dbFile)) return
  try {
    closeSync(openSync(dbFile, 'wx', DB_FILE_MODE))
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'EEXIST') throw err
  }
}

/** Links a copy of `template` in as `dbFile`; false when it cannot (a file system without hard links: the caller starts empty). */
function linkCopy(template: string, dbFile: string): boolean {
  const copy = `${dbFile}.template-${process.pid}`
  try {
    writeFileSync(copy, readFileSync(template), { mode: DB_FILE_MODE })
    linkSync(copy, dbFile)
    return true
  } catch (err) {
    // Another process created the file meanwhile: theirs is kept.
    return (err as { code?: unknown }).code === 'EEXIST'
  } finally {
    rmSync(copy, { force: true })
  }
}
