import type { Seam } from '../../db/client'
import { DAY } from '../../lib/clock'
import { createRetentionRepository } from './retention.repository'

/** The UTC day (`YYYY-MM-DD`) of an epoch-ms time. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
/** Epoch ms of a UTC day's midnight. */
export const startOfDay = (day: string): number => Date.parse(`${day}T00:00:00.000Z`)
const nextDay = (day: string) => dayOf(startOfDay(day) + DAY)

export interface RollupOptions {
  now: number
  /** Raw rows before this time may already be gone: days starting before it are never rolled up again. */
  retainedFrom: number
  /** Between days, so writers get the lock. */
  pause: () => Promise<void>
}

/**
 * Rolls up every complete UTC day not rolled up yet, oldest first, and records how far it went.
 * Sessions re-roll the two days before the watermark too (while their raw rows are all kept), so
 * sessions that end after midnight are counted. A day's rows are read outside any write (readers
 * never block the writer); only the short replace of that day's rollup takes the lock. Returns the
 * days written.
 */
export async function rollUpTelemetry(db: Seam, o: RollupOptions): Promise<number> {
  const repo = createRetentionRepository({ db })
  const today = dayOf(o.now)
  let written = 0
  for (const rollup of ['events', 'sessions'] as const) {
    const through = await repo.rolledUpThrough(rollup)
    let from: string
    if (through) {
      from = rollup === 'sessions' ? dayOf(startOfDay(through) - DAY) : nextDay(through)
      while (rollup === 'sessions' && startOfDay(from) < o.retainedFrom && from <= through) from = nextDay(from)
    } else {
      const oldest = rollup === 'events' ? await repo.oldestEventAt() : await repo.oldestSessionAt()
      from = oldest === null ? today : dayOf(oldest)
    }
    // A new day without rows has nothing to write: only the watermark moves, once, after the loop
    // (a first run over years of sparse telemetry would otherwise take a write per empty day), and the
    // loop goes straight to the next day with rows (a read per empty day is a round trip on PostgreSQL:
    // ten years of them took over 30 s).
    let emptyThrough: string | null = null
    for (let day = from; day < today; ) {
      const range = [new Date(startOfDay(day)), new Date(startOfDay(day) + DAY)] as const
      const isNew = day > (through ?? '')
      const watermark = isNew ? day : through!
      written++
      let empty: boolean
      if (rollup === 'events') {
        const rows = await repo.eventsBetween(...range)
        empty = isNew && rows.length === 0
        if (!empty) await repo.replaceEventsDay(day, rows, watermark)
      } else {
        const rows = await repo.sessionsBetween(...range)
        empty = isNew && rows.length === 0
        if (!empty) await repo.replaceSessionsDay(day, rows, watermark)
      }
      if (empty) {
        const next = rollup === 'events' ? await repo.oldestEventAt(range[1].getTime()) : await repo.oldestSessionAt(range[1].getTime())
        const nextWithRows = next === null || dayOf(next) > today ? today : dayOf(next)
        emptyThrough = dayOf(startOfDay(nextWithRows) - DAY)
        day = nextWithRows
        continue
      }
      emptyThrough = null
      await o.pause()
      day = nextDay(day)
    }
    if (emptyThrough) await repo.setRolledUpThrough(rollup, emptyThrough)
    // Nothing to roll up yet: start from yesterday next time rather than scanning for the oldest row again.
    if (!through && from === today) await repo.setRolledUpThrough(rollup, dayOf(o.now - DAY))
  }
  return written
}
