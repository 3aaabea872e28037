import type { Database } from 'bun:sqlite'
import { DAY } from '../../lib/clock'

/** The UTC day (`YYYY-MM-DD`) of an epoch-ms time. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
/** Epoch ms of a UTC day's midnight. */
export const startOfDay = (day: string): number => Date.parse(`${day}T00:00:00.000Z`)
const nextDay = (day: string) => dayOf(startOfDay(day) + DAY)

type Rollup = 'events' | 'sessions'

/** Reads of a day run outside any write transaction (WAL readers never block the writer); only the short replace of a day's rows takes the lock. */
function statements(sqlite: Database) {
  return {
    through: sqlite.query<{ through_day: string }, [string]>('SELECT through_day FROM telemetry_rollup_state WHERE name = ?'),
    setThrough: sqlite.query<never, [string, string]>(
      'INSERT INTO telemetry_rollup_state (name, through_day) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET through_day = excluded.through_day',
    ),
    // Per dictionary name, a range of the (name_id, created_at) index: no scan of the whole table.
    oldestEvent: sqlite.query<{ t: number | null }, []>('SELECT min((SELECT min(created_at) FROM events WHERE name_id = n.id)) AS t FROM event_names n'),
    oldestSession: sqlite.query<{ t: number | null }, []>('SELECT min((SELECT min(started_at) FROM play_sessions WHERE project_id = p.id)) AS t FROM projects p'),
    eventsOfDay: sqlite.query<{ project_id: string; name: string; count: number; sessions: number }, [number, number]>(
      `SELECT n.project_id, n.name, count(*) AS count, count(DISTINCT e.session_token) AS sessions
       FROM event_names n JOIN events e ON e.name_id = n.id AND e.created_at >= ? AND e.created_at < ?
       GROUP BY n.id`,
    ),
    sessionsOfDay: sqlite.query<
      { project_id: string; game_version: string; platform: string; started: number; ended: number; crashed: number; players: number; duration: number },
      [number, number]
    >(
      `SELECT s.project_id, s.game_version, s.platform, count(*) AS started, count(s.ended_at) AS ended, coalesce(sum(s.crashed), 0) AS crashed,
              count(DISTINCT s.player_id) AS players, coalesce(sum(s.duration_sec), 0) AS duration
       FROM projects p JOIN play_sessions s ON s.project_id = p.id AND s.started_at >= ? AND s.started_at < ?
       GROUP BY s.project_id, s.game_version, s.platform`,
    ),
    clearEvents: sqlite.query<never, [string]>('DELETE FROM telemetry_daily_events WHERE day = ?'),
    insertEvents: sqlite.query<never, [string, string, string, number, number]>(
      'INSERT INTO telemetry_daily_events (project_id, day, event_name, count, sessions) VALUES (?, ?, ?, ?, ?)',
    ),
    clearSessions: sqlite.query<never, [string]>('DELETE FROM telemetry_daily_sessions WHERE day = ?'),
    insertSessions: sqlite.query<never, [string, string, string, string, number, number, number, number, number]>(
      'INSERT INTO telemetry_daily_sessions (project_id, day, game_version, platform, started, ended, crashed, players, duration_sec) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
  }
}

/** The last day rolled up, or null when the rollup never ran. */
export function rolledUpThrough(sqlite: Database, rollup: Rollup): string | null {
  return statements(sqlite).through.get(rollup)?.through_day ?? null
}

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
 * sessions that end after midnight are counted. Returns the days written.
 */
export async function rollUpTelemetry(sqlite: Database, o: RollupOptions): Promise<number> {
  const st = statements(sqlite)
  const today = dayOf(o.now)
  let written = 0
  for (const rollup of ['events', 'sessions'] as const) {
    const through = st.through.get(rollup)?.through_day ?? null
    let from: string
    if (through) {
      from = rollup === 'sessions' ? dayOf(startOfDay(through) - DAY) : nextDay(through)
      while (rollup === 'sessions' && startOfDay(from) < o.retainedFrom && from <= through) from = nextDay(from)
    } else {
      const oldest = (rollup === 'events' ? st.oldestEvent : st.oldestSession).get()?.t ?? null
      from = oldest === null ? today : dayOf(oldest)
    }
    for (let day = from; day < today; day = nextDay(day)) {
      const range: [number, number] = [startOfDay(day), startOfDay(day) + DAY]
      if (rollup === 'events') {
        const rows = st.eventsOfDay.all(...range)
        sqlite
          .transaction(() => {
            st.clearEvents.run(day)
            for (const r of rows) st.insertEvents.run(r.project_id, day, r.name, r.count, r.sessions)
            st.setThrough.run(rollup, day > (through ?? '') ? day : through!)
          })
          .immediate()
      } else {
        const rows = st.sessionsOfDay.all(...range)
        sqlite
          .transaction(() => {
            st.clearSessions.run(day)
            for (const r of rows) st.insertSessions.run(r.project_id, day, r.game_version, r.platform, r.started, r.ended, r.crashed, r.players, r.duration)
            st.setThrough.run(rollup, day > (through ?? '') ? day : through!)
          })
          .immediate()
      }
      written++
      await o.pause()
    }
    // Nothing to roll up yet: start from yesterday next time rather than scanning for the oldest row again.
    if (!through && from === today) st.setThrough.run(rollup, dayOf(o.now - DAY))
  }
  return written
}
