import type { AppDeps } from '../../app-deps'
import type { Tx } from '../../db/client'
import type { StoredFile } from '../../files/storage'
import { badRequest } from '../../http/errors'
import type { Project } from '../../http/auth.plugin'
import { newId } from '../../lib/ids'
import { MAX_ATTACHMENTS_PER_REPORT } from '../attachments/attachments.service'
import { chargeUpload } from '../billing/quota'
import { createReport, type NewReport, newReportFrom } from '../reports/reports.service'
import { titleKeyOf } from '../reports/title-terms'
import { findPossibleDuplicates } from './duplicates'
import { fileQueuedByTitle, queueReport } from './report-inbox'
import { type Base64File, insertAttachmentRows, removeFiles, storeBase64Files } from './sdk-files'
import { MAX_METADATA_BYTES, type SubmitInput } from './sdk.schemas'
import { scoreInline } from './scoring'
import { scoreSentiment, sentimentText } from './sentiment'
import type { LiveReportByTitle, SubmitRepository } from './submit.repository'
import type { WriteBatcher } from './write-batcher'

type SubmitDeps = Pick<AppDeps, 'db' | 'clock' | 'events' | 'files' | 'requestsBehind' | 'scoring'>

/**
 * New reports go through the inbox (report-inbox.ts) when this many writes share one commit:
 * requests arriving together. Queueing costs the request thread about a third of filing, and the
 * inbox files them as soon as the loop can spare. One at a time, a report is filed before the answer.
 */
export const QUEUE_WHEN_TOGETHER = 2

/** Titles the field SDKs give errors and freezes they file on their own. */
const SYSTEM_TITLE = /^\s*\[(?:error|freeze)\]/i

export interface SubmitAnswer {
  id: string
  report_number: number
  message: string
  deduplicated?: true
  category: string
  priority: string
  sentiment_score: number | null
  sentiment_level: string | null
  possible_duplicates: number[]
}

export interface SubmitResult {
  /** True for a new report (201), false when stacked onto an existing one (200). */
  created: boolean
  body: SubmitAnswer
}

/**
 * What a submission's transaction decided: the answer, files not kept, and for a new report its row
 * number (filed now) or `queued` (in the inbox; its answer is scored after the commit).
 */
interface Outcome {
  result: SubmitResult
  seq?: number
  queued?: true
  unused: StoredFile[]
}

/** The submission with its files stored and the values both paths use. */
interface Submission {
  project: Project
  input: SubmitInput
  metadata: unknown
  screenshot: StoredFile | null
  attachments: StoredFile[]
  playerId: string | null
  now: Date
}

/** `metadata` as given (null when absent), or 400 past 16 KB of JSON. */
function checkedMetadata(metadata: unknown): unknown {
  if (metadata === undefined || metadata === null) return null
  if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) throw badRequest('metadata: must be at most 16 KB as JSON')
  return metadata
}

function chargeFiles(tx: Tx, project: Project, files: StoredFile[]): void {
  const bytes = files.reduce((n, f) => n + f.size, 0)
  if (bytes > 0) chargeUpload(tx, project.accountId, bytes)
}


/** Records the submission as an occurrence of `existing`; a report keeps at most 10 attachments, extra files are dropped. */
function stackOnto(tx: Tx, repo: SubmitRepository, s: Submission, existing: LiveReportByTitle): Outcome {
  const { input } = s
  repo.insertOccurrence.run({
    id: newId(),
    reportId: existing.id,
    projectId: s.project.id,
    deviceInfo: input.device_info ?? '',
    osInfo: input.os_info ?? '',
    platform: input.platform ?? '',
    gameVersion: input.game_version ?? '',
    playerId: s.playerId,
    reporterName: input.reporter_name ?? null,
    metadata: s.metadata === null ? null : JSON.stringify(s.metadata),
    screenshotKey: s.screenshot?.key ?? null,
    createdAt: s.now,
  })
  repo.bumpOccurrences.run({ reportId: existing.id, now: s.now })
  const room = s.attachments.length ? Math.max(0, MAX_ATTACHMENTS_PER_REPORT - repo.attachmentCount.get({ reportId: existing.id })!.n) : 0
  const kept = s.attachments.slice(0, room)
  chargeFiles(tx, s.project, s.screenshot ? [s.screenshot, ...kept] : kept)
  insertAttachmentRows(tx, { id: existing.id, projectId: s.project.id }, kept, s.now)
  return {
    unused: s.attachments.slice(room),
    result: {
      created: false,
      body: {
        id: existing.id,
        report_number: existing.reportNumber,
        message: 'Bug report added to an existing report',
        deduplicated: true,
        category: existing.category,
        priority: existing.priority,
        sentiment_score: existing.sentimentScore,
        sentiment_level: existing.sentimentLevel,
        possible_duplicates: [],
      },
    },
  }
}

/** The answer for a new report; its scores are filled in by whoever computes them. */
function newReportAnswer(id: string, number: number, report: NewReport): SubmitResult {
  return {
    created: true,
    body: {
      id,
      report_number: number,
      message: 'Bug report submitted',
      category: report.category ?? 'other',
      priority: report.priority ?? 'medium',
      sentiment_score: report.sentimentScore ?? null,
      sentiment_level: report.sentimentLevel ?? null,
      possible_duplicates: [],
    },
  }
}

/**
 * Files the submission as a new report (quota, numbering, `bug_created`) with its attachments. With
 * `queue` (a load spike) and no attachments, it only reserves the report and leaves the rest to the
 * inbox (report-inbox.ts), sentiment included: the answer is scored after the commit, and the inbox
 * scores the report the same way when it files it.
 */
function fileNew(deps: SubmitDeps, tx: Tx, s: Submission, queue: boolean): Outcome {
  const { input } = s
  const report: NewReport = {
    ...newReportFrom(input),
    source: input.auto_captured || SYSTEM_TITLE.test(input.title) ? 'system' : 'user',
    reporterName: input.reporter_name ?? null,
    reporterEmail: input.reporter_email || null,
    playerId: s.playerId,
    metadata: s.metadata,
    screenshotKey: s.screenshot?.key ?? null,
  }
  chargeFiles(tx, s.project, s.screenshot ? [s.screenshot, ...s.attachments] : s.attachments)
  if (queue && s.attachments.length === 0) {
    const reserved = queueReport(deps, s.project, report)
    return { queued: true, unused: [], result: newReportAnswer(reserved.id, reserved.number, report) }
  }
  const sentiment = scoreSentiment([input.title, input.description, input.steps_to_reproduce])
  report.sentimentScore = sentiment.score
  report.sentimentLevel = sentiment.level
  const created = createReport(deps, tx, s.project, report)
  insertAttachmentRows(tx, created, s.attachments, s.now)
  return { seq: created.seq, unused: [], result: newReportAnswer(created.id, created.reportNumber, report) }
}

/** Fills in the answer of a report left in the inbox: sentiment and possible duplicates, on the scoring thread when there is one. */
async function scoreQueued(deps: SubmitDeps, repo: SubmitRepository, project: Project, input: SubmitInput, body: SubmitAnswer): Promise<void> {
  const req = { projectId: project.id, title: input.title, text: sentimentText([input.title, input.description, input.steps_to_reproduce]) }
  const scores = deps.scoring ? await deps.scoring.score(req) : scoreInline(repo, req)
  body.sentiment_score = scores.sentiment.score
  body.sentiment_level = scores.sentiment.level
  body.possible_duplicates = scores.possibleDuplicates
}

/**
 * Files a report from a game client. The screenshot and attachments are stored first (file writes
 * are async); then one synchronous transaction, group-committed with concurrent writes, stacks the
 * submission onto a live report with the same title (when the project groups bugs) or files a new
 * report; finally a new report gets its possible duplicates (and, queued, its sentiment). Stored
 * files are removed on failure.
 */
export async function submitReport(deps: SubmitDeps, repo: SubmitRepository, writes: WriteBatcher, project: Project, input: SubmitInput): Promise<SubmitResult> {
  const metadata = checkedMetadata(input.metadata)
  const uploads: { file: Base64File; field: string; kind: 'attachment' | 'image' }[] = []
  if (input.screenshot) uploads.push({ file: { filename: 'screenshot', data: input.screenshot }, field: 'screenshot', kind: 'image' })
  input.attachments?.forEach((file, i) => uploads.push({ file, field: `attachments.${i}`, kind: 'attachment' }))
  const stored = uploads.length ? await storeBase64Files(deps, uploads) : []
  const s: Submission = {
    project,
    input,
    metadata,
    screenshot: input.screenshot ? stored[0]! : null,
    attachments: input.screenshot ? stored.slice(1) : stored,
    playerId: input.steam_id ?? input.player_id ?? null,
    now: deps.clock.now(),
  }
  let outcome: Outcome
  try {
    outcome = await writes.run((tx, together) => {
      // Load: several writes in this turn of the event loop, or the loop running late. Decided for
      // the whole group at once, so the first submits of a burst are queued like the rest.
      const queue = together >= QUEUE_WHEN_TOGETHER || (deps.requestsBehind?.() ?? false)
      const titleKey = titleKeyOf(input.title)
      // A report with this title still in the inbox is filed first, so the submission stacks onto it.
      const existing = project.bugGrouping ? (repo.liveByTitleKey.get(project.id, titleKey) ?? fileQueuedByTitle(deps, tx, project.id, titleKey)) : null
      return existing ? stackOnto(tx, repo, s, existing) : fileNew(deps, tx, s, queue)
    })
  } catch (err) {
    await removeFiles(deps, stored)
    throw err
  }
  await removeFiles(deps, outcome.unused)
  if (outcome.queued) await scoreQueued(deps, repo, project, input, outcome.result.body)
  else if (outcome.seq !== undefined) outcome.result.body.possible_duplicates = findPossibleDuplicates(repo, project.id, input.title, outcome.seq)
  return outcome.result
}
