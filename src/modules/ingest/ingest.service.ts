import type { AppDeps } from '../../app-deps'
import { type Query, writeInTurn } from '../../db/client'
import { together } from '../../db/together'
import { removeFiles, type StoredFile } from '../../files/storage'
import { newId } from '../../lib/ids'
import { chargeUpload } from '../auth/quota'
import { extractErrorType } from '../reports/error-type'
import { insertReport, type NewReport, reserveReport } from '../reports/reports.service'
import type { Category, Priority } from '../reports/reports.types'
import { handledOf } from './crash'
import { isCrash } from '../reports/report-crash'
import { findPossibleDuplicates } from './duplicates'
import { occurrenceTime } from './event-time'
import { type Grouping, groupingOf } from './fingerprint'
import { ingestRepositoryOf, type IngestRepository } from './ingest.repository'
import { insertAttachmentRows } from './ingest-files'
import type { OccurrenceDimensions } from '../reports/report-additions'
import { reopenAsRegression } from './regression'
import { scoreSentiment } from './sentiment'
import { framesOfText, stackTraceSection } from './stack-text'
import type { Submission } from './submission'
import { listsVersion, reopensResolved, withVersion } from '../reports/report-versions'
import { facetsOfOccurrence } from '../reports/report-facets'
import { tagsOfMetadata } from '../reports/report-tags'
import { type GroupingTarget, reportsRepositoryOf } from '../reports/reports.repository'

/**
 * The one way a submission becomes a report or an occurrence of one, whichever client sent it
 * (README "Architecture"). Read top to bottom:
 * 1. `ingest` works out the submission's grouping key (fingerprint.ts) and error type, then runs
 *    one write in the turn of its crash (writeInTurn: the project and grouping key): concurrent
 *    submissions of one crash are decided in arrival order, so together or one by one they get the
 *    same answers, while other crashes file side by side (on SQLite, in one group commit);
 * 2. `fileOrStack` looks for the oldest live report with that key that still takes occurrences
 *    (open, in progress, resolved) when the project groups reports;
 * 3. found: `stack` records an occurrence with its own evidence and keeps the report's counts, and
 *    reopens a resolved report when a newer build brings the crash back (regression.ts);
 * 4. not found: `fileNew` files a report (numbering, quota, first occurrence, `bug_created`), with
 *    its possible duplicates looked up once its number is taken (the project's counter row: every
 *    report numbered before it is committed) and before it is inserted, so it never lists itself;
 * 5. the answer says which, after the COMMIT: an acknowledged submission is stored.
 * A submission carrying a client event id (Sentry's `event_id`) claims it first, in the same write:
 * an id the project took in before (a retry) changes nothing, and `ingest` answers null.
 */

type IngestDeps = Pick<AppDeps, 'db' | 'clock' | 'events' | 'files' | 'config'>

export interface IngestResult {
  /** True for a new report, false for an occurrence of an existing one. */
  created: boolean
  report: {
    id: string
    number: number
    category: Category
    priority: Priority
    sentimentScore: number | null
    sentimentLevel: 'positive' | 'neutral' | 'negative' | null
  }
  occurrenceId: string
  /** Numbers of open reports with similar titles (new reports only). */
  possibleDuplicates: number[]
  /** Set when the occurrence reopened a resolved report. */
  regression: { resolvedInVersion: string | null; version: string } | null
}

/** What `ingest` works out before the write, from the submission alone. */
interface Prepared {
  s: Submission
  grouping: Grouping
  errorType: string
  files: StoredFile[]
}

/** Files or stacks a submission; stored files are removed when it fails, or when its event id was taken in before (then null). */
export async function ingest(deps: IngestDeps, s: Submission & { eventId?: null }): Promise<IngestResult>
export async function ingest(deps: IngestDeps, s: Submission): Promise<IngestResult | null>
export async function ingest(deps: IngestDeps, s: Submission): Promise<IngestResult | null> {
  const files = [...(s.screenshot ? [s.screenshot] : []), ...(s.attachments ?? [])]
  try {
    const prepared = prepare(s, files)
    // In the turn of its crash: submissions of one grouping key stack as they would one by one. Numbers
    // need no turn: the project's counter row is locked from the number's update to the COMMIT.
    const result = await writeInTurn(deps.db, `ingest:${s.project.id}:${prepared.grouping.fingerprint}`, (tx) => fileOrStack(deps, tx, prepared))
    if (!result) await removeFiles(deps, files)
    return result
  } catch (err) {
    await removeFiles(deps, files)
    throw err
  }
}

/** A submission's grouping key and error type, as `ingest` works them out (stored dumps re-symbolicated later regroup with it). */
export function groupingOfSubmission(s: Submission): { grouping: Grouping; errorType: string } {
  const thrown = s.exceptions?.[0]
  // The frames of the exception thrown, else of the nearest one in its chain (its causes) that has some.
  const withFrames = s.exceptions?.find((e) => e.frames.length > 0)
  const errorType = thrown?.type || extractErrorType(s.title, s.description)
  const stack = withFrames ? null : stackTraceSection(s.description)
  const frames = withFrames?.frames ?? (stack ? framesOfText(stack) : [])
  return { grouping: groupingOf({ kind: s.kind, title: s.title, errorType, frames, clientFingerprint: s.fingerprint }), errorType }
}

function prepare(s: Submission, files: StoredFile[]): Prepared {
  return { s, files, ...groupingOfSubmission(s) }
}

/** The repositories the write runs on: the write's own handle, so each call joins its transaction (built once per handle). */
function reposOf(tx: Query) {
  return { ingest: ingestRepositoryOf(tx), reports: reportsRepositoryOf(tx) }
}
type Repos = ReturnType<typeof reposOf>

async function fileOrStack(deps: IngestDeps, tx: Query, p: Prepared): Promise<IngestResult | null> {
  const repos = reposOf(tx)
  // One round trip on PostgreSQL: the claim of a retried event id changes nothing, so the read beside it is merely unused.
  const [fresh, target] = await together([
    p.s.eventId ? repos.ingest.claimEventId(p.s.project.id, p.s.eventId, deps.clock.now()) : Promise.resolve(true),
    p.s.project.bugGrouping ? repos.reports.groupingTarget(p.s.project.id, p.grouping.fingerprint) : Promise.resolve(undefined),
  ] as const)
  if (!fresh) return null
  const result = target ? await stack(deps, tx, repos, p, target) : await fileNew(deps, tx, repos.ingest, p)
  const bytes = p.files.reduce((n, f) => n + f.size, 0)
  if (bytes > 0) await chargeUpload(tx, p.s.project.accountId, bytes)
  return result
}

/** Where the submission ran, as its occurrence records it. */
function dimensionsOf(s: Submission): OccurrenceDimensions {
  return { runtime: s.runtime?.name ?? '', runtimeVersion: s.runtime?.version ?? '', browser: s.browser?.name ?? '', browserVersion: s.browser?.version ?? '', environment: s.environment ?? '' }
}

const asNumber = (b: boolean | null) => (b === null ? null : b ? 1 : 0)

/** The occurrence's own copy of what was sent, as both tables store it, and when it happened. */
function evidenceOf(deps: IngestDeps, p: Prepared) {
  const { s } = p
  return {
    level: s.level ?? null,
    handled: asNumber(handledOf(s.exceptions)),
    at: occurrenceTime({ sent: s.occurredAt, received: deps.clock.now(), retentionDays: deps.config.retentionDays }),
    title: s.title,
    description: s.description,
    stepsToReproduce: s.stepsToReproduce ?? '',
    expectedBehavior: s.expectedBehavior ?? '',
    actualBehavior: s.actualBehavior ?? '',
    source: s.source ?? (s.kind === 'auto' ? ('system' as const) : ('user' as const)),
    errorType: p.errorType,
    platform: s.platform ?? '',
    gameVersion: s.gameVersion ?? '',
    osInfo: s.osInfo ?? '',
    deviceInfo: s.deviceInfo ?? '',
    playerId: s.playerId || null,
    reporterName: s.reporterName ?? null,
    reporterEmail: s.reporterEmail || null,
    screenshotKey: s.screenshot?.key ?? null,
    client: s.client ?? null,
    eventId: s.eventId ?? null,
  }
}

async function stack(deps: IngestDeps, tx: Query, repos: Repos, p: Prepared, target: GroupingTarget): Promise<IngestResult> {
  const now = deps.clock.now()
  const occurrenceId = newId()
  const metadata = p.s.metadata === undefined || p.s.metadata === null ? null : JSON.stringify(p.s.metadata)
  // The occurrence is the evidence object itself, completed (no copies of its ~25 fields per stack).
  const evidence = evidenceOf(deps, p)
  const crash = isCrash({ level: p.s.level, category: p.s.category, handled: evidence.handled === null ? null : evidence.handled === 1 })
  const e = Object.assign(evidence, dimensionsOf(p.s), { tags: tagsOfMetadata(p.s.metadata), crash: crash ? (1 as const) : (0 as const), id: occurrenceId, reportId: target.id, projectId: p.s.project.id, metadata, now })
  const newPlayer = await repos.ingest.addOccurrence(e, target.seq)
  // The list's version/platform/player/screenshot filters (report-facets.ts), less what the report
  // already has by what is in hand (its versions, a known player).
  const known = { versionListed: listsVersion(target.versions, e.gameVersion), playerCounted: !newPlayer }
  const facets = facetsOfOccurrence(e, known)
  await together([
    repos.reports.countOccurrence({ projectId: p.s.project.id, seq: target.seq, newPlayer, at: e.at, level: e.level, handled: e.handled, version: e.gameVersion, versions: withVersion(target.versions, e.gameVersion), facets }),
    insertAttachmentRows(tx, { id: target.id, projectId: p.s.project.id, occurrenceId }, p.s.attachments ?? [], now),
  ])
  let regression: IngestResult['regression'] = null
  if (target.status === 'resolved' && reopensResolved(e.gameVersion, target.resolvedInVersion)) {
    await reopenAsRegression(deps, tx, { id: target.id, projectId: p.s.project.id, resolvedInVersion: target.resolvedInVersion }, e.gameVersion, now)
    regression = { resolvedInVersion: target.resolvedInVersion, version: e.gameVersion }
  }
  return {
    created: false,
    report: { id: target.id, number: target.reportNumber, category: target.category, priority: target.priority, sentimentScore: target.sentimentScore, sentimentLevel: target.sentimentLevel },
    occurrenceId,
    possibleDuplicates: [],
    regression,
  }
}

async function fileNew(deps: IngestDeps, tx: Query, ingestRepo: IngestRepository, p: Prepared): Promise<IngestResult> {
  const { s } = p
  // The number first: its row lock waits for every report the project numbered before to commit.
  const reserved = await reserveReport(deps, tx, s.project)
  // Sentiment is the player's tone: automatic captures have none.
  const sentiment = s.kind === 'player' ? scoreSentiment([s.title, s.description, s.stepsToReproduce]) : null
  const occurrenceId = newId()
  const { at, handled, ...evidence } = evidenceOf(deps, p)
  const input: NewReport = {
    ...evidence,
    handled: handled === null ? null : handled === 1,
    occurredAt: at,
    priority: s.priority,
    category: s.category,
    metadata: s.metadata ?? null,
    sentimentScore: sentiment?.score ?? null,
    sentimentLevel: sentiment?.level ?? null,
    fingerprint: p.grouping.fingerprint,
    groupingLabel: p.grouping.label,
    occurrenceId,
    dimensions: dimensionsOf(s),
  }
  // Looked up before the report exists (sent first: the server runs them in that order), so it never
  // lists itself, and only reports filed before it count.
  const [possibleDuplicates, report] = await together([findPossibleDuplicates(ingestRepo, s.project.id, s.title), insertReport(deps, tx, s.project, input, reserved)] as const)
  await insertAttachmentRows(tx, { id: report.id, projectId: s.project.id, occurrenceId }, s.attachments ?? [], report.createdAt)
  return {
    created: true,
    report: { id: report.id, number: report.reportNumber, category: report.category, priority: report.priority, sentimentScore: report.sentimentScore, sentimentLevel: report.sentimentLevel },
    occurrenceId,
    possibleDuplicates,
    regression: null,
  }
}
