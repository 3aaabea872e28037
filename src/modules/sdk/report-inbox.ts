import type { AppDeps } from '../../app-deps'
import { type Db, rawSqlite, type Tx } from '../../db/client'
import { loopGuard } from '../../lib/background'
import { insertReport, type NewReport, type ReservedReport, type Report, reserveReport } from '../reports/reports.service'
import { titleKeyOf } from '../reports/title-terms'
import { QueuedTitles } from './inbox-titles'
import { scoreSentiment } from './sentiment'
import type { SubmitRepository } from './submit.repository'

/**
 * The SDK's inbox for load spikes. When submits arrive together (two or more sharing a commit) or
 * the request thread is behind (see `AppDeps.requestsBehind`), a new report without attachments is
 * answered from a reservation: the quota is charged, the id and number taken and the submission
 * stored in `report_inbox`, all committed before the 201 (its sentiment and possible duplicates are
 * scored apart, see scoring.ts). The report row (13 indexes, the search index, sentiment, activity,
 * `bug_created`) is filed later by `startInboxFiling`, a trickle while the spike lasts and then as
 * fast as requests allow. Until then the report is not listed; a later submission with the same
 * title, or an SDK call naming its id, files it on the spot first, so grouping and attachments
 * never miss it.
 */
type InboxDeps = Pick<AppDeps, 'db' | 'clock' | 'events'>

interface InboxRow {
  seq: number
  id: string
  projectId: string
  reportNumber: number
  titleKey: string
  input: string
  createdAt: number
}

const COLUMNS = 'seq, id, project_id AS projectId, report_number AS reportNumber, title_key AS titleKey, input, created_at AS createdAt'

function prepare(db: Db) {
  const sqlite = rawSqlite(db)
  return {
    insert: sqlite.prepare<unknown, [string, string, number, string, string, number]>(
      'INSERT INTO report_inbox (id, project_id, report_number, title_key, input, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    bySeq: sqlite.prepare<InboxRow, [number]>(`SELECT ${COLUMNS} FROM report_inbox WHERE seq = ?`),
    queuedTitles: sqlite.prepare<{ seq: number; projectId: string; titleKey: string }, []>('SELECT seq, project_id AS projectId, title_key AS titleKey FROM report_inbox ORDER BY seq'),
    byId: sqlite.prepare<InboxRow, [string, string]>(`SELECT ${COLUMNS} FROM report_inbox WHERE id = ? AND project_id = ?`),
    // `skip`: a JSON array of seqs that failed to file (see `fileQueued`).
    oldest: sqlite.prepare<InboxRow, [string, number]>(`SELECT ${COLUMNS} FROM report_inbox WHERE seq NOT IN (SELECT value FROM json_each(?)) ORDER BY seq LIMIT ?`),
    remove: sqlite.prepare<unknown, [number]>('DELETE FROM report_inbox WHERE seq = ?'),
    count: sqlite.prepare<{ n: number }, []>('SELECT count(*) AS n FROM report_inbox'),
  }
}

interface InboxState {
  /** Queued reports as counted here: a hint kept in memory, recounted from the table now and then. */
  pending: number
  lastQueuedAt: number
  /** Rows that failed to file in this process (by seq): set aside so they hold nothing up. */
  stuck: Set<number>
  /** Queued rows by title, for the same-title lookup (read from the table once, then kept here). */
  titles: QueuedTitles
}

const cache = new WeakMap<Db, ReturnType<typeof prepare> & InboxState>()
function inbox(db: Db) {
  let s = cache.get(db)
  if (!s) {
    const statements = prepare(db)
    const titles = new QueuedTitles()
    for (const row of statements.queuedTitles.all()) titles.add(row.projectId, row.titleKey, row.seq)
    cache.set(db, (s = { ...statements, pending: -1, lastQueuedAt: -Infinity, stuck: new Set(), titles }))
  }
  // Counted once from the table (rows left by a previous process), then kept in memory.
  if (s.pending < 0) s.pending = s.count.get()!.n
  return s
}

/** Reports waiting in the inbox (as counted in memory). */
export const queuedReports = (db: Db) => inbox(db).pending

/** Counts the inbox again from the table: rollbacks and cascades can make the count in memory drift. */
export function recountQueued(db: Db): number {
  const s = inbox(db)
  s.pending = s.count.get()!.n - s.stuck.size
  return s.pending
}

/** Reserves a report (quota, id, number) and stores the submission for filing later; inside the caller's transaction. */
export function queueReport(deps: InboxDeps, project: { id: string; accountId: string }, input: NewReport): ReservedReport {
  const reserved = reserveReport(deps, project)
  const s = inbox(deps.db)
  const titleKey = titleKeyOf(input.title)
  const { lastInsertRowid } = s.insert.run(reserved.id, project.id, reserved.number, titleKey, JSON.stringify(input), reserved.now.getTime())
  s.titles.add(project.id, titleKey, Number(lastInsertRowid))
  s.pending++
  s.lastQueuedAt = performance.now()
  return reserved
}

/** Files one queued report inside `tx`: the report row with its reserved id, number and time, then out of the inbox. */
function file(deps: InboxDeps, tx: Tx, row: InboxRow): Report {
  const input = JSON.parse(row.input) as NewReport
  // Queued unscored (its answer was scored apart, see submit.service.ts): the same text gives the same score.
  if (input.sentimentScore === undefined) {
    const sentiment = scoreSentiment([input.title, input.description, input.stepsToReproduce])
    input.sentimentScore = sentiment.score
    input.sentimentLevel = sentiment.level
  }
  const report = insertReport(deps, tx, { id: row.projectId }, input, { id: row.id, number: row.reportNumber, now: new Date(row.createdAt) })
  const s = inbox(deps.db)
  s.remove.run(row.seq)
  s.titles.forget(row.projectId, row.titleKey, row.seq)
  return report
}

/** Files the oldest queued report of the project with this title key now (inside `tx`); undefined when none waits. */
export function fileQueuedByTitle(deps: InboxDeps, tx: Tx, projectId: string, titleKey: string): Report | undefined {
  // The map holds every queued title (only this process queues), so no candidate means none waits;
  // each candidate is checked against its row (slots are shared, rolled-back seqs linger).
  const s = inbox(deps.db)
  for (const seq of [...s.titles.candidates(projectId, titleKey)]) {
    const row = s.bySeq.get(seq)
    if (row && row.projectId === projectId && row.titleKey === titleKey) {
      s.pending--
      return file(deps, tx, row)
    }
    s.titles.forget(projectId, titleKey, seq)
  }
  return undefined
}

/** Files the queued report `id` of the project now, in its own transaction; false when it is not queued. */
export function fileQueuedById(deps: InboxDeps, projectId: string, id: string): boolean {
  const s = inbox(deps.db)
  const filed = deps.db.transaction((tx) => {
    const row = s.byId.get(id, projectId)
    if (row) file(deps, tx, row)
    return Boolean(row)
  })
  if (filed) s.pending--
  return filed
}

/** The live report `id` of the project for an SDK call naming it, filing it first if it still waits in the inbox. */
export function liveSdkReport(deps: InboxDeps, repo: SubmitRepository, projectId: string, id: string) {
  const find = () => repo.liveReportOfProject.get({ id, projectId })
  return find() ?? (fileQueuedById(deps, projectId, id) ? find() : undefined)
}

/**
 * Files up to `limit` of the oldest queued reports in one transaction; returns how many. When that
 * fails, each is tried in its own transaction, and one that still fails is set aside (logged, kept
 * in the inbox, tried again after a restart) so that it cannot hold up the reports behind it.
 */
export function fileQueued(deps: InboxDeps & { logger?: AppDeps['logger'] }, limit: number): number {
  const s = inbox(deps.db)
  if (s.pending === 0) return 0
  const rows = s.oldest.all(JSON.stringify([...s.stuck]), limit)
  // The last ones: the count in memory may have drifted (a queued write rolled back); it ends here.
  if (rows.length < limit) s.pending = rows.length
  let filed = 0
  try {
    deps.db.transaction((tx) => rows.forEach((row) => file(deps, tx, row)))
    filed = rows.length
  } catch {
    for (const row of rows) {
      try {
        deps.db.transaction((tx) => file(deps, tx, row))
        filed++
      } catch (err) {
        s.stuck.add(row.seq)
        deps.logger?.error('a queued SDK report could not be filed; it stays in the inbox', { report_id: row.id, error: String(err) })
      }
    }
  }
  s.pending = Math.max(0, s.pending - rows.length)
  return filed
}

/** Reports filed per slice: ~2-3 ms of the event loop, short enough not to read as request lag itself. */
const SLICE = 8
/** While requests are behind, one slice per this many ms: the inbox still moves during a long spike. */
const TRICKLE_MS = 100
/** A report queued this recently means the spike goes on (the loop may keep time while requests queue). */
const SPIKE_QUIET_MS = 250

/**
 * Files queued reports on the request thread (where the domain-event subscribers live) in short
 * slices between requests: at full speed once the spike is over (`busy` false and nothing queued
 * for 250 ms), one slice per 100 ms while it lasts. Returns a stop function. A failing slice is
 * logged and retried on the next turn.
 */
export function startInboxFiling(deps: InboxDeps & Pick<AppDeps, 'logger'>, busy: () => boolean): () => void {
  let stopped = false
  let lastTrickle = 0
  let timer: ReturnType<typeof setTimeout> | null = null
  const spike = () => busy() || performance.now() - inbox(deps.db).lastQueuedAt < SPIKE_QUIET_MS
  let lastRecount = performance.now()
  // A turn that throws (the database file broke) is logged, not fatal to the process (issue 21).
  const turn = loopGuard(deps)('sdk.inbox-filing', () => {
    timer = null
    if (stopped) return
    let delay = 25
    if (queuedReports(deps.db) <= 0 && performance.now() - lastRecount > 1000) {
      lastRecount = performance.now()
      recountQueued(deps.db)
    }
    if (queuedReports(deps.db) > 0) {
      const now = performance.now()
      if (!spike() || now - lastTrickle >= TRICKLE_MS) {
        lastTrickle = now
        try {
          fileQueued(deps, SLICE)
          delay = spike() ? TRICKLE_MS : 0
        } catch (err) {
          // Reading the inbox failed (the database is busy or gone): try again later.
          deps.logger.error('filing queued SDK reports failed', { error: String(err) })
          delay = 1000
        }
      }
    }
    timer = setTimeout(turn, delay)
  })
  turn()
  return () => {
    stopped = true
    if (timer) clearTimeout(timer)
  }
}
