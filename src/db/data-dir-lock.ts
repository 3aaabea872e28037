import { constants, Database } from 'bun:sqlite'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { DataDirError, dataDirError, makePrivateDir } from './data-dir'

export const LOCK_FILE = 'glitchbox.lock'

/** Who holds a data directory. */
export interface LockOwner {
  pid: number
  host: string
  startedAt: string
}

/** Open lock handles: referenced here for the life of the process, so the collector never closes one (and drops its lock). */
const held = new Set<Database>()

/**
 * Takes the data directory for this server process, or throws a DataDirError naming the server
 * that holds it (pid, host, start time). Two servers on one directory both ran before: each
 * numbered reports from its own memory, and their inserts collided on the UNIQUE report numbers.
 *
 * The lock is a small SQLite file, `glitchbox.lock`, held in EXCLUSIVE locking mode after one write
 * (the owner row), for the life of the process. Why this and not a pid file or flock:
 * - SQLite's locks are fcntl locks, which the kernel drops when the process dies, `kill -9` and
 *   crashes included: no stale lock to clean up by hand, and no pid check that a recycled pid fools.
 * - bun:sqlite is already in the binary; `flock` would need bun:ffi and the libc's file name.
 * - A second process cannot read a file under an EXCLUSIVE lock through SQLite's locking, so it
 *   reads the committed owner row with `immutable=1` (no locks taken, the journal ignored).
 * CLI commands (backup, admin, stats) do not take it: they are safe beside a running server.
 */
export function lockDataDir(dataDir: string, now: Date = new Date()): { owner: LockOwner; release(): void } {
  const path = join(dataDir, LOCK_FILE)
  let db: Database
  try {
    makePrivateDir(dataDir)
    db = new Database(path, { create: true, readwrite: true })
  } catch (err) {
    throw dataDirError(dataDir, err)
  }
  const owner: LockOwner = { pid: process.pid, host: hostname(), startedAt: now.toISOString() }
  try {
    db.exec('PRAGMA busy_timeout = 0')
    // Kept after the first write until the connection closes (or the process ends).
    db.exec('PRAGMA locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
    db.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER NOT NULL, host TEXT NOT NULL, started_at TEXT NOT NULL)')
    db.exec('DELETE FROM owner')
    db.query('INSERT INTO owner (pid, host, started_at) VALUES (?, ?, ?)').run(owner.pid, owner.host, owner.startedAt)
    db.exec('COMMIT')
  } catch (err) {
    db.close()
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw inUse(dataDir, readOwner(path))
    throw dataDirError(path, err)
  }
  held.add(db)
  return {
    owner,
    release() {
      held.delete(db)
      db.close()
    },
  }
}

/** The owner row as last committed, read without taking any lock; null when it cannot be read. */
function readOwner(path: string): LockOwner | null {
  try {
    const db = new Database(`file:${path.split('/').map(encodeURIComponent).join('/')}?immutable=1`, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI)
    try {
      return db.query<LockOwner, []>('SELECT pid, host, started_at AS startedAt FROM owner').get()
    } finally {
      db.close()
    }
  } catch {
    return null
  }
}

function inUse(dataDir: string, owner: LockOwner | null): DataDirError {
  const who = owner ? `another glitchbox server (pid ${owner.pid} on ${owner.host}, started ${owner.startedAt})` : 'another glitchbox server'
  return new DataDirError(`the data directory ${dataDir} is in use by ${who}; stop that server first, or give this one another data directory (GLITCHBOX_DATA_DIR or --data-dir)`)
}
