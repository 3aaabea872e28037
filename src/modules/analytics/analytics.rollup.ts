import { type Db, type Seam, writeInTurn } from '../../db/client'
import { DAY } from '../../lib/clock'
import { createReportsRepository } from '../reports/reports.repository'
import { createAlertsRepository } from '../workflow/alerts.repository'
import { isCrashReport, normalizeLogLine, sectionLines } from './crash.normalize'
import { createRollupRepository, type EventDayBucket, type PerfBucket } from './analytics.rollup.repository'
import { createSdkCursorsRepository } from '../sdk/sdk.cursors.repository'
import { createSourcesRepository } from './analytics.sources.repository'
import { PERF_METRICS, SCENE_LOAD } from './perf.metrics'
import { OCCURRENCES_CURSOR } from './report-daily'
import { createTelemetryRepository, SESSIONS_CURSOR } from './telemetry.repository'

/**
 * Rows per step: one step holds the write lock for 5-20 ms (an occurrence costs ~20-50 µs of
 * upserts). Steps of 500 held it 16-38 ms while catching up after a burst, and a request-thread
 * commit waiting behind one in SQLite's busy handler (whose sleeps grow) stalled 190 ms.
 */
export const ROLLUP_STEP = 250
const dayOf = (d: Date) => d.toISOString().slice(0, 10)
const startOfDay = (day: string) => Date.parse(`${day}T00:00:00.000Z`)

/** The rollup cursors live in rollup_cursors, which the alerts repository owns. */
const cursors = (db: Seam) => {
  const alerts = createAlertsRepository({ db })
  return { position: async (name: string) => (await alerts.cursor(name)) ?? 0, move: alerts.setCursor }
}

/**
 * Runs `step` in writes until it reports a short step or `maxSteps` ran; returns the rows handled.
 * Each write takes its turn on the cursor (`writeInTurn`): a page's catch-up and the scheduled job,
 * or two nodes, rolling up at once would otherwise both read the cursor before either moved it and
 * count the same rows twice (PostgreSQL runs writes side by side; SQLite's single writer did not).
 */
async function steps(db: Seam, cursorName: string, maxSteps: number, step: () => Promise<number>): Promise<number> {
  let total = 0
  for (let i = 0; i < maxSteps; i++) {
    const n = await writeInTurn(db as Db, `rollup:${cursorName}`, step)
    total += n
    if (n < ROLLUP_STEP) break
  }
  return total
}

/**
 * Counts the occurrences stored since the cursor (every submission, the first of each report
 * included) into the daily, crash-group, player and log-line rollups, under their report's
 * fingerprint and category as they are now.
 */
export function rollUpOccurrences(db: Seam, maxSteps = 100): Promise<number> {
  const repo = createRollupRepository({ db })
  const sources = createSourcesRepository({ db })
  const cursor = cursors(db)
  return steps(db, OCCURRENCES_CURSOR, maxSteps, async () => {
    const rows = await sources.occurrencesAfter(await cursor.position(OCCURRENCES_CURSOR), ROLLUP_STEP)
    // Every occurrence has its report (a cascade deletes them together); one without would only be skipped.
    const counted = rows.flatMap((o) => {
      if (o.reportSeq === null) return []
      const at = new Date(o.createdAt)
      const logs = sectionLines(o.description, 'Recent Logs')
      const logLines = logs ? [...new Set(logs.map(normalizeLogLine).filter(Boolean))] : []
      return [{ ...o, reportSeq: o.reportSeq, at, day: dayOf(at), dayNumber: Math.floor(o.createdAt / DAY), crash: isCrashReport(o) || o.crashed ? (1 as const) : (0 as const), logLines }]
    })
    await repo.countOccurrences(counted)
    if (rows.length) await cursor.move(OCCURRENCES_CURSOR, rows.at(-1)!.seq)
    return rows.length
  })
}

/** Records the versions and version players of the sessions started since the cursor (by rowid). */
export function rollUpSessions(db: Seam, maxSteps = 100): Promise<number> {
  const repo = createRollupRepository({ db })
  const sources = createSdkCursorsRepository({ db })
  const cursor = cursors(db)
  return steps(db, SESSIONS_CURSOR, maxSteps, async () => {
    const rows = await sources.sessionsAfter(await cursor.position(SESSIONS_CURSOR), ROLLUP_STEP)
    await repo.seeVersions(rows)
    if (rows.length) await cursor.move(SESSIONS_CURSOR, rows.at(-1)!.rowid)
    return rows.length
  })
}

/** Adds the performance snapshots stored since the cursor (by rowid) to the histograms, under their report's version and platform. */
export function rollUpPerf(db: Seam, maxSteps = 100): Promise<number> {
  const repo = createRollupRepository({ db })
  const sources = createSdkCursorsRepository({ db })
  const cursor = cursors(db)
  return steps(db, 'analytics_perf', maxSteps, async () => {
    const snapshots = await sources.perfAfter(await cursor.position('analytics_perf'), ROLLUP_STEP)
    // Under their report's version and platform ('' without a report, or when it is gone).
    const ofReport = await createReportsRepository({ db }).versionsAndPlatforms(snapshots.flatMap((s) => (s.reportId ? [s.reportId] : [])))
    const rows = snapshots.map((s) => ({ ...s, gameVersion: ofReport.get(s.reportId ?? '')?.gameVersion ?? '', platform: ofReport.get(s.reportId ?? '')?.platform ?? '' }))
    const buckets = new Map<string, PerfBucket>()
    for (const s of rows) {
      for (const m of PERF_METRICS) {
        const raw = s[m.field]
        if (raw === null || !Number.isFinite(raw)) continue
        const value = m.round(raw)
        const metric = s.reportId ? m.key : `${SCENE_LOAD}${m.key}`
        const key = `${s.projectId}|${s.gameVersion}|${s.platform}|${metric}|${value}`
        const b = buckets.get(key) ?? { projectId: s.projectId, gameVersion: s.gameVersion, platform: s.platform, metric, value, count: 0 }
        b.count++
        buckets.set(key, b)
      }
    }
    await repo.addPerfCounts([...buckets.values()])
    if (rows.length) await cursor.move('analytics_perf', rows.at(-1)!.rowid)
    return rows.length
  })
}

const EVENTS_FROM = 'analytics_events_from'

/**
 * Counts the events stored since the cursor into analytics_event_days (per project, day, name, with
 * distinct session tokens), and prunes the days the retention rollup has reached. A first run starts
 * at yesterday's first event: older days are the retention rollup's (or read raw until it runs).
 */
export async function rollUpEvents(db: Seam, now: Date, maxSteps = 100): Promise<number> {
  const repo = createRollupRepository({ db })
  const sources = createSdkCursorsRepository({ db })
  const cursor = cursors(db)
  await db.write(async () => {
    if ((await createAlertsRepository({ db }).cursor(EVENTS_FROM)) !== undefined) return
    const from = startOfDay(dayOf(new Date(now.getTime() - DAY)))
    await cursor.move('analytics_events', await sources.eventIdBefore(from))
    await cursor.move(EVENTS_FROM, from)
  })
  // Deleting the newest events (a project's deletion) lets SQLite hand their ids out again: the
  // cursor steps back to the newest id present, so later events are not skipped. Events stored
  // between such a deletion and this run are missed until the retention rollup recounts their day.
  await db.write(async () => {
    const max = await sources.newestEventId()
    if ((await cursor.position('analytics_events')) > max) await cursor.move('analytics_events', max)
  })
  const through = await createTelemetryRepository({ db }).rolledThrough('events')
  if (through) await repo.pruneEventDays(through)
  return steps(db, 'analytics_events', maxSteps, async () => {
    const rows = await sources.eventsAfter(await cursor.position('analytics_events'), ROLLUP_STEP)
    const names = await sources.eventNamesOf([...new Set(rows.map((e) => e.nameId))])
    const named = rows.flatMap((e) => {
      const n = names.get(e.nameId)
      return n ? [{ ...e, n, day: dayOf(new Date(e.createdAt)) }] : []
    })
    const withToken = named.filter((e) => e.token !== null)
    const fresh = await repo.newEventSessions(withToken.map((e) => ({ nameId: e.nameId, day: e.day, token: e.token! })))
    const newSession = new Set(withToken.filter((_, i) => fresh[i]))
    const buckets = new Map<string, EventDayBucket>()
    for (const e of named) {
      const key = `${e.nameId}|${e.day}`
      const b = buckets.get(key) ?? { projectId: e.n.projectId, day: e.day, name: e.n.name, count: 0, sessions: 0 }
      b.count++
      if (newSession.has(e)) b.sessions++
      buckets.set(key, b)
    }
    await repo.addEventDays([...buckets.values()])
    if (rows.length) await cursor.move('analytics_events', rows.at(-1)!.id)
    return rows.length
  })
}

/** The first day analytics_event_days covers (its first run), or null before it ran. */
export async function eventDaysFrom(db: Seam): Promise<string | null> {
  const p = await createAlertsRepository({ db }).cursor(EVENTS_FROM)
  return p === undefined ? null : dayOf(new Date(p))
}

/** Brings every cursor-driven analytics rollup up to date, or `maxSteps` steps of each nearer. */
export async function rollUpAnalytics(db: Seam, now: Date, maxSteps = 100): Promise<{ reports: number; sessions: number; perf: number; events: number }> {
  return { reports: await rollUpOccurrences(db, maxSteps), sessions: await rollUpSessions(db, maxSteps), perf: await rollUpPerf(db, maxSteps), events: await rollUpEvents(db, now, maxSteps) }
}
