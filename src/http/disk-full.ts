import { statfsSync } from 'node:fs'
import type { AppDeps } from '../app-deps'
import { diskFullProbe } from '../db/disk-probe'

/** The answer (507) to a write refused for want of space, and the reason /health gives meanwhile. */
export const DISK_FULL = "the server's disk is full"

/** Less free space than this in the data directory counts as full (SQLite needs room for its WAL). */
const MIN_FREE_BYTES = 1024 * 1024
const LOG_EVERY_MS = 60_000

/** Whether an error (or one it wraps) is SQLite's SQLITE_FULL or a file write's ENOSPC. */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return true
  }
  return false
}

/**
 * Follows whether writes fail for want of space. A failed write marks the disk full (logged at most
 * once a minute, not per request); /health then reports 503 for as long as a probe write still
 * fails, and clears the mark by itself once space returns. The data directory's free space is
 * checked on every /health too, so a disk filling up shows before a write fails.
 */
export class DiskWatch {
  private fullSince: number | null = null
  private lastLogged = -Infinity

  constructor(
    private readonly deps: Pick<AppDeps, 'clock' | 'logger' | 'config'>,
    /** True while a probe write fails (db/disk-probe.ts). */
    private readonly probeFails: () => boolean,
  ) {}

  /** Records a write refused for want of space. */
  failed(error: unknown): void {
    const now = this.deps.clock.now().getTime()
    this.fullSince ??= now
    if (now - this.lastLogged < LOG_EVERY_MS) return
    this.lastLogged = now
    this.deps.logger.error("the server's disk is full: writes fail until space is freed", {
      data_dir: this.deps.config.dataDir,
      error: error instanceof Error ? error.message : String(error),
    })
  }

  /** Whether writes fail for want of space now (runs a probe write only after a failure was seen). */
  full(): boolean {
    if (this.freeBytes() < MIN_FREE_BYTES) return true
    if (this.fullSince === null) return false
    if (this.probeFails()) return true
    this.fullSince = null
    this.lastLogged = -Infinity
    this.deps.logger.info('disk space is back: writes succeed again')
    return false
  }

  private freeBytes(): number {
    try {
      const s = statfsSync(this.deps.config.dataDir)
      return s.bavail * s.bsize
    } catch {
      return Infinity
    }
  }
}

const watches = new WeakMap<object, DiskWatch>()

/** The disk watch of an app (one per database). */
export function diskWatchOf(deps: Pick<AppDeps, 'db' | 'clock' | 'logger' | 'config'>): DiskWatch {
  let w = watches.get(deps.db)
  if (!w) watches.set(deps.db, (w = new DiskWatch(deps, diskFullProbe(deps.db))))
  return w
}
