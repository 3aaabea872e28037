import { statfsSync } from 'node:fs'
import type { Config } from '../../config/config'
import type { Db } from '../../db/client'
import { databaseStats } from '../../db/free-pages'
import { createRetentionRepository } from './retention.repository'

/**
 * What the data directory holds, for `glitchbox admin stats`: database (with its WAL and the pages
 * free for reuse), stored files (from their rows, also when they sit in a bucket), free disk, rows per table, the oldest raw telemetry kept and the retention
 * settings. Only reads, so it runs beside a live server.
 */
export async function storageStats(config: Pick<Config, 'dataDir' | 'retentionDays' | 'replayRetentionDays'>, db: Db) {
  const repo = createRetentionRepository({ db })
  const { database, rows } = await databaseStats(db)
  const disk = statfsSync(config.dataDir)
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())
  return {
    data_dir: config.dataDir,
    database,
    files: await repo.storedFiles(),
    disk: { free_bytes: disk.bavail * disk.bsize, total_bytes: disk.blocks * disk.bsize },
    rows,
    oldest_retained: {
      event: iso(await repo.oldestEventAt()),
      perf_snapshot: iso(await repo.oldestPerfAt()),
      play_session: iso(await repo.oldestSessionAt()),
      session_replay: iso(await repo.oldestReplayAt()),
    },
    retention: { days: config.retentionDays, replay_days: config.replayRetentionDays },
  }
}

export type StorageStats = Awaited<ReturnType<typeof storageStats>>

const units = ['B', 'KB', 'MB', 'GB', 'TB']
/** 1536 → "1.5 KB". */
export function formatBytes(n: number): string {
  let v = n
  let u = 0
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024
    u++
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`
}

/** The stats as the CLI prints them. */
export function formatStats(s: StorageStats): string {
  const keep = (days: number) => (days === 0 ? 'forever' : `${days} days`)
  const width = Math.max(...Object.keys(s.rows).map((k) => k.length))
  return [
    `data directory   ${s.data_dir}`,
    s.database.engine === 'postgresql'
      ? `database         ${formatBytes(s.database.bytes)} (PostgreSQL, GLITCHBOX_DATABASE_URL)`
      : `database         ${formatBytes(s.database.bytes)} (+ ${formatBytes(s.database.wal_bytes)} WAL; ${formatBytes(s.database.free_bytes)} free for reuse; auto_vacuum ${s.database.auto_vacuum})`,
    `files            ${formatBytes(s.files.bytes)} in ${s.files.count} files`,
    `free disk        ${formatBytes(s.disk.free_bytes)} of ${formatBytes(s.disk.total_bytes)}`,
    `retention        raw telemetry ${keep(s.retention.days)}, replays ${keep(s.retention.replay_days)}`,
    `oldest event     ${s.oldest_retained.event ?? 'none'}`,
    `oldest perf      ${s.oldest_retained.perf_snapshot ?? 'none'}`,
    `oldest session   ${s.oldest_retained.play_session ?? 'none'}`,
    `oldest replay    ${s.oldest_retained.session_replay ?? 'none'}`,
    'rows per table:',
    ...Object.entries(s.rows).map(([name, n]) => `  ${name.padEnd(width)}  ${n}`),
  ].join('\n')
}
