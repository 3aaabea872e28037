import type { AppDeps } from '../../app-deps'
import { type Seam, writeInTurn } from '../../db/client'
import { DAY } from '../../lib/clock'
import { createActivityRepository } from '../activity/activity.repository'
import { recordActivity } from '../activity/activity.service'
import { createAttachmentsRepository } from '../attachments/attachments.repository'
import { createIngestRepository } from '../ingest/ingest.repository'
import { groupingOfSubmission } from '../ingest/ingest.service'
import { stackTraceSection } from '../ingest/stack-text'
import { createProjectsRepository, type Project } from '../projects/projects.repository'
import { createReportsRepository, type Report } from '../reports/reports.repository'
import { titleColumnsOf } from '../reports/title-terms'
import { refiledFromMinidump } from '../sentry/minidump.adapter'
import { symbolicateMinidump } from '../sentry/minidump-symbols'
import { parseMinidump } from '../sentry/minidump/minidump-parser'
import type { ParsedMinidump } from '../sentry/minidump/minidump.types'

export const RESYMBOLICATE_JOB = 'debug-files.resymbolicate'
/** How far back stored dumps are symbolicated again. */
const RESYMBOLICATE_DAYS = 30
/** Crashes read per run at most, the newest: a crash storm keeps a run to minutes, and its older dumps are the same crash. */
const MAX_CRASHES_PER_RUN = 500
const MINIDUMP = 'application/x-minidump'
/** The activity a rewrite records (the dashboard reads it as "symbolicated it after symbols for … were uploaded"). */
const SYMBOLICATED = 'symbolicated'

export interface ResymbolicatePayload {
  projectId: string
  /** The `.sym`'s debug id, upper-case hex as dumps list it. */
  debugId: string
  /** The module the symbols are for (`test_app.pdb`), for the report's activity. */
  name: string
  /** When the `.sym` was stored (ISO 8601): a report symbolicated since had it already. */
  uploadedAt: string
}

type Deps = Pick<AppDeps, 'db' | 'files' | 'clock' | 'logger'>

/** Queues, in the write that stored a `.sym`, the re-symbolication of the project's stored dumps: one job per project and debug id. */
export async function enqueueResymbolication(deps: Pick<AppDeps, 'jobs'>, tx: Seam, payload: ResymbolicatePayload): Promise<void> {
  await deps.jobs.enqueue(tx, { kind: RESYMBOLICATE_JOB, payload, idempotencyKey: `${RESYMBOLICATE_JOB}:${payload.projectId}:${payload.debugId}`, maxAttempts: 3 })
}

/**
 * Symbolicates again, with the symbols the project has now, the newest stored dump of each report
 * whose crashes in the last 30 days name the module `debugId` (at most 500 crashes read, newest
 * first), and rewrites the reports whose stack it now walks otherwise (`renameReport`). A report
 * symbolicated since the upload is left alone: sentry-cli uploads a build's `.sym` files together,
 * and the first of their jobs used them all. A dump that cannot be read is logged and skipped.
 * Returns how many reports changed.
 */
export async function resymbolicateStoredDumps(deps: Deps, payload: ResymbolicatePayload): Promise<number> {
  const project = await createProjectsRepository({ db: deps.db }).byId(payload.projectId)
  if (!project || !/^[0-9A-F]+$/.test(payload.debugId)) return 0
  const since = new Date(deps.clock.now().getTime() - RESYMBOLICATE_DAYS * DAY)
  const crashes = await createIngestRepository({ db: deps.db }).crashesNamingModule(project.id, payload.debugId, since, MAX_CRASHES_PER_RUN)
  // Newest first: the first crash seen of each report is its newest.
  const newest = new Map<string, string>()
  for (const c of crashes) if (!newest.has(c.reportId)) newest.set(c.reportId, c.id)
  if (newest.size === 0) return 0
  const reports = (await createReportsRepository({ db: deps.db }).byIds([...newest.keys()])).filter((r) => !r.deletedAt)
  const lastRuns = await createActivityRepository({ db: deps.db }).lastOfReports(
    reports.map((r) => r.id),
    SYMBOLICATED,
  )
  const uploadedAt = new Date(payload.uploadedAt)
  const stale = reports.filter((r) => !hadSymbolsOf(r, lastRuns.get(r.id), uploadedAt))
  const attachments = await createAttachmentsRepository({ db: deps.db }).ofOccurrences(stale.map((r) => newest.get(r.id)!))
  const dumpKeys = new Map(attachments.filter((a) => a.mimeType === MINIDUMP).map((a) => [a.occurrenceId, a.fileKey]))
  let renamed = 0
  for (const report of stale) {
    const key = dumpKeys.get(newest.get(report.id)!)
    const dump = key ? await readStoredDump(deps, key) : null
    if (dump && (await renameReport(deps, project, report, dump, payload.name))) renamed++
  }
  return renamed
}

/** Whether the report's frames were named with every upload up to `uploadedAt`: rewritten by a run since, or filed symbolicated since. */
function hadSymbolsOf(report: Report, lastRun: Date | undefined, uploadedAt: Date): boolean {
  if (lastRun && lastRun >= uploadedAt) return true
  return minidumpOf(report)?.symbolicated === true && report.createdAt >= uploadedAt
}

/** A stored dump's bytes and what they say, or null (logged) when the file is gone or unreadable. */
async function readStoredDump(deps: Deps, key: string): Promise<{ bytes: Uint8Array; parsed: ParsedMinidump } | null> {
  try {
    const opened = await deps.files.open(deps.db, key)
    if (!opened) throw new Error('the stored file is missing')
    const bytes = new Uint8Array(await opened.body.arrayBuffer())
    return { bytes, parsed: parseMinidump(bytes) }
  } catch (err) {
    deps.logger.warn('a stored minidump could not be read for re-symbolication; skipped', { file_key: key, error: err instanceof Error ? err.message : String(err) })
    return null
  }
}

/**
 * Whether the dump walked with the symbols the project has now gives another stack than the report
 * shows: more symbols name more frames, and their unwind rules walk past frames a scan guessed
 * (the same symbols give the same stack, so a report is rewritten once per upload that changes it).
 */
const walkedAnew = (shown: string, now: string) => stackTraceSection(shown)?.trim() !== stackTraceSection(now)?.trim()

/**
 * Rewrites a report filed from a dump when the project's symbols now walk it otherwise: the
 * title (unless a person edited it), the description (same), the grouping key (when it is still the
 * dump's unsymbolicated one and no other live report has the new one: never a merge) and the
 * metadata's `symbolicated`; number, votes, comments, labels and status stay. In the turn of the new
 * grouping key, as ingest files it, so a crash arriving meanwhile stacks on one side or the other.
 */
async function renameReport(deps: Deps, project: Project, report: Report, dump: { bytes: Uint8Array; parsed: ParsedMinidump }, symbolsName: string): Promise<boolean> {
  const symbols = await symbolicateMinidump(deps, project.id, dump.bytes)
  if (!symbols) return false
  const filed = { project, kind: 'auto' as const, title: report.title, description: report.description, metadata: report.metadata }
  const before = groupingOfSubmission(refiledFromMinidump(filed, dump.parsed, null))
  const refiled = refiledFromMinidump(filed, dump.parsed, symbols)
  const after = groupingOfSubmission(refiled)
  // An event that named its own exception keeps its title and grouping: only a crash the dump described changes.
  if (report.errorType !== before.errorType || !walkedAnew(report.description, refiled.description)) return false
  const activity = createActivityRepository({ db: deps.db })
  const [titleEdited, descriptionEdited] = await Promise.all([activity.editedByPerson(report.id, 'title'), activity.editedByPerson(report.id, 'description')])
  return writeInTurn(deps.db, `ingest:${project.id}:${after.grouping.fingerprint}`, async (tx) => {
    const reports = createReportsRepository({ db: tx })
    const now = await reports.liveById(report.id)
    // Changed since it was read (an edit, a merge, a crash that regrouped it): the next upload's run sees it anew.
    if (!now || now.title !== report.title || now.description !== report.description || now.fingerprint !== report.fingerprint) return false
    const regroups = report.fingerprint === before.grouping.fingerprint && after.grouping.fingerprint !== report.fingerprint
    const taken = regroups && (await reports.groupingTarget(project.id, after.grouping.fingerprint))
    const changes = {
      ...(titleEdited || refiled.title === report.title ? {} : titleColumnsOf(refiled.title)),
      ...(descriptionEdited ? {} : { description: refiled.description }),
      ...(regroups && !taken ? { fingerprint: after.grouping.fingerprint, groupingLabel: after.grouping.label } : {}),
    }
    // A person's title and text, and a key another report holds: nothing of the new walk to show.
    if (Object.keys(changes).length === 0) return false
    await reports.update(report.id, { ...changes, metadata: markedSymbolicated(report, refiled.metadata) })
    await recordActivity(tx, deps.clock.now(), [{ projectId: project.id, reportId: report.id, actorId: null, action: SYMBOLICATED, newValue: symbolsName }])
    return true
  })
}

const minidumpOf = (report: Report) => (report.metadata as { minidump?: Record<string, unknown> } | null)?.minidump

/**
 * The report's metadata with its minidump marked symbolicated and its missing symbols as the new walk
 * found them (`refiled`: the metadata filed again); the rest of what its first dump said stays.
 */
function markedSymbolicated(report: Report, refiled: unknown): unknown {
  const minidump = minidumpOf(report)
  const missing = (refiled as { minidump?: { missing_symbols?: unknown } } | null)?.minidump?.missing_symbols ?? []
  return minidump ? { ...(report.metadata as object), minidump: { ...minidump, symbolicated: true, missing_symbols: missing } } : report.metadata
}
