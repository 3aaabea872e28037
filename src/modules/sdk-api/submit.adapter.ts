import type { AppDeps } from '../../app-deps'
import { badRequest } from '../../http/errors'
import type { Project } from '../projects/projects.repository'
import { isAutoTitle } from '../ingest/fingerprint'
import { ingest, type IngestResult } from '../ingest/ingest.service'
import type { Category, Priority } from '../reports/reports.types'
import { type Base64File, storeBase64Files } from '../sdk/sdk-files'
import { MAX_METADATA_BYTES, type SubmitInput } from '../sdk/sdk.schemas'

/**
 * `POST /api/bugs/submit` (the SDKs and the widget) and the public tracker's "Report a bug" form:
 * the body becomes a submission for the one ingest path, and its result the spec's answer.
 */

export interface SubmitAnswer {
  id: string
  report_number: number
  message: string
  deduplicated?: true
  /** Set when this occurrence reopened a resolved report: a newer build brought the bug back. */
  regression?: { resolved_in_version: string | null; version: string }
  category: Category
  priority: Priority
  sentiment_score: number | null
  sentiment_level: string | null
  possible_duplicates: number[]
}

/** `metadata` as given (null when absent), or 400 past 16 KB of JSON. */
function checkedMetadata(metadata: unknown): unknown {
  if (metadata === undefined || metadata === null) return null
  if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) throw badRequest('metadata: must be at most 16 KB as JSON')
  return metadata
}

function messageOf(r: IngestResult): string {
  if (r.created) return 'Bug report submitted'
  if (r.regression) return `Bug report added to report #${r.report.number}, which was resolved and is now reopened as a regression`
  return 'Bug report added to an existing report'
}

/** The spec's submit answer (201 new, 200 stacked with `deduplicated`). */
export function submitAnswerOf(r: IngestResult): SubmitAnswer {
  return {
    id: r.report.id,
    report_number: r.report.number,
    message: messageOf(r),
    ...(r.created ? {} : { deduplicated: true as const }),
    ...(r.regression ? { regression: { resolved_in_version: r.regression.resolvedInVersion, version: r.regression.version } } : {}),
    category: r.report.category,
    priority: r.report.priority,
    sentiment_score: r.report.sentimentScore,
    sentiment_level: r.report.sentimentLevel,
    possible_duplicates: r.possibleDuplicates,
  }
}

/** Stores the body's files, then ingests it; returns whether a report was created and the answer. */
export async function submitFromSdk(deps: Pick<AppDeps, 'db' | 'clock' | 'events' | 'files' | 'config'>, project: Project, input: SubmitInput): Promise<{ created: boolean; body: SubmitAnswer }> {
  const metadata = checkedMetadata(input.metadata)
  const uploads: { file: Base64File; field: string; kind: 'attachment' | 'image' }[] = []
  if (input.screenshot) uploads.push({ file: { filename: 'screenshot', data: input.screenshot }, field: 'screenshot', kind: 'image' })
  input.attachments?.forEach((file, i) => uploads.push({ file, field: `attachments.${i}`, kind: 'attachment' }))
  const stored = uploads.length ? await storeBase64Files(deps, uploads) : []
  const result = await ingest(deps, {
    project,
    kind: input.auto_captured || isAutoTitle(input.title) ? 'auto' : 'player',
    title: input.title,
    description: input.description,
    stepsToReproduce: input.steps_to_reproduce,
    expectedBehavior: input.expected_behavior,
    actualBehavior: input.actual_behavior,
    priority: input.priority,
    category: input.category,
    platform: input.platform,
    gameVersion: input.game_version,
    osInfo: input.os_info,
    deviceInfo: input.device_info,
    playerId: input.steam_id ?? input.player_id ?? null,
    reporterName: input.reporter_name,
    reporterEmail: input.reporter_email,
    metadata,
    fingerprint: input.fingerprint,
    screenshot: input.screenshot ? stored[0] : null,
    attachments: input.screenshot ? stored.slice(1) : stored,
  })
  return { created: result.created, body: submitAnswerOf(result) }
}
