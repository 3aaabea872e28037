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
