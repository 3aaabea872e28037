import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { createDatabaseFile } from './database-template'

/** The data directory (or its database) cannot be used: the message names the path and the cause in words, for a one-line exit. */
export class DataDirError extends Error {}

/** What an SQLite or file-system error code means to an operator. */
const CAUSES: Record<string, string> = {
  SQLITE_NOTADB: 'the file is not a SQLite database, it was overwritten or is damaged',
  SQLITE_CORRUPT: 'the database file is damaged',
  SQLITE_CANTOPEN: 'the file cannot be opened; check that the directory exists and that this user may write to it',
  SQLITE_READONLY: 'the file is read-only for this user',
  SQLITE_PERM: 'permission denied',
  SQLITE_FULL: 'the disk is full',
  SQLITE_IOERR: 'the disk reported an I/O error',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'a file of that name is in the way',
  ENOSPC: 'the disk is full',
}

/** Wraps a failure to open `path` into a DataDirError: "cannot open PATH: CAUSE (the original message)". */
export function dataDirError(path: string, err: unknown): DataDirError {
  const code = String((err as { code?: unknown })?.code ?? '')
  // Extended SQLite codes (SQLITE_IOERR_SHORT_READ, SQLITE_CORRUPT_VTAB, ...) read as their primary code.
  const cause = CAUSES[code] ?? CAUSES[code.split('_').slice(0, 2).join('_')]
  const detail = err instanceof Error ? err.message : String(err)
  return new DataDirError(`cannot open ${path}: ${cause ? `${cause} (${detail})` : detail}`)
}

/** The data directory is its owner's alone: it holds webhook secrets, credentials and reporter emails. */
const DIR_MODE = 0o700
/** The database and the -wal and -shm files SQLite creates beside it (with the database file's mode). */
const DB_FILE_MODE = 0o600

/** Creates `dir` (and missing parents) readable by its owner only, whatever the umask. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE })
}

/**
 * Makes the data directory 0700 and the database file (`dbFile`, when SQLite) 0600 before SQLite opens it: SQLite gives
 * its -wal and -shm files the database file's mode, so they follow. Modes looser than that (left
 * by an older version or a copy) are tightened, keeping the owner's own bits. Returns the paths it
 * tightened and those it could not (not this user's: a mounted volume), for one log line; neither
 * stops the start.
 */
export function makeDataDirPrivate(dataDir: string, dbFile: string | null): { tightened: string[]; stillOpen: string[] } {
  makePrivateDir(dataDir)
  // null: the database is elsewhere (PostgreSQL), and no empty file of its name is left here.
  if (dbFile) createDatabaseFile(dbFile)
  const tightened: string[] = []
  const stillOpen: string[] = []
  const modes: (readonly [string, number])[] = [[dataDir, DIR_MODE]]
  if (dbFile) modes.push([dbFile, DB_FILE_MODE], [`${dbFile}-wal`, DB_FILE_MODE], [`${dbFile}-shm`, DB_FILE_MODE])
  for (const [path, mode] of modes) {
    if (!existsSync(path)) continue
    const current = statSync(path).mode & 0o777
    if ((current & ~mode) === 0) continue
    try {
      chmodSync(path, current & mode)
      tightened.push(path)
    } catch {
      stillOpen.push(path)
    }
  }
  return { tightened, stillOpen }
}
