import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import { together } from '../../db/together'
import { newId } from '../../lib/ids'
import { forbidden } from '../../http/errors'
import { exceeds, limitOwner, PlanLimitError, PLANS, type PlanKey } from '../auth/plans'
import { reportAdditions } from './report-additions'
import { facetsOfOccurrence } from './report-facets'
import { tagsOfMetadata } from './report-tags'
import { type Report, reportsRepositoryOf } from './reports.repository'
import { listItemView } from './reports.views'
import { extractErrorType } from './error-type'
import { titleColumnsOf } from './title-terms'
import { NO_DIMENSIONS, type OccurrenceDimensions } from './report-additions'
import { isCrash } from './report-crash'
import { type Category, type Priority, PRIORITIES, type Source } from './reports.types'

export type { Report }

export interface NewReport {
  title: string
  description: string
  priority?: Priority
  category?: Category
  platform?: string
  gameVersion?: string
  osInfo?: string
  deviceInfo?: string
  stepsToReproduce?: string
  expectedBehavior?: string
  actualBehavior?: string
  source?: Source
  reporterName?: string | null
  reporterEmail?: string | null
  playerId?: string | null
  metadata?: unknown
  screenshotKey?: string | null
  sentimentScore?: number | null
  sentimentLevel?: 'positive' | 'neutral' | 'negative' | null
  createdBy?: string | null
  /** The exception class when the client named it; read from the title and stack trace otherwise. */
  errorType?: string
  /** The grouping key and its label (ingest/fingerprint.ts); computed from the report when absent. */
  fingerprint?: string
  groupingLabel?: string
  /** Of the first occurrence: where it ran (runtime, browser, environment; '' when unknown). */
  dimensions?: OccurrenceDimensions
  /** Of the first occurrence: the client that sent it, its own event id, and the id to give it. */
  client?: string | null
  eventId?: string | null
  occurrenceId?: string
  /** Of the first occurrence: the client's severity and handled flag (ingest/crash.ts), and when it happened (ingest/event-time.ts; else now). */
  level?: string | null
  handled?: boolean | null
  occurredAt?: Date
  /** Split makes a report of occurrences that exist already: no first occurrence is written. */
  withoutOccurrence?: boolean
}

/** The fields of spec section 2 a member or a game client writes when filing a report, as the API names them. */
export interface ReportBody {
  title: string
  description: string
  priority?: Priority
  category?: Category
  platform?: string | null
  game_version?: string | null
  os_info?: string | null
  device_info?: string | null
  steps_to_reproduce?: string | null
  expected_behavior?: string | null
  actual_behavior?: string | null
}

/** A report body (team route or SDK submit) as `createReport` input; absent and null fields take the defaults. */
export function newReportFrom(b: ReportBody): NewReport {
  return {
    title: b.title,
    description: b.description,
    priority: b.priority,
    category: b.category,
    platform: b.platform ?? undefined,
    gameVersion: b.game_version ?? undefined,
    osInfo: b.os_info ?? undefined,
    deviceInfo: b.device_info ?? undefined,
    stepsToReproduce: b.steps_to_reproduce ?? undefined,
    expectedBehavior: b.expected_behavior ?? undefined,
    actualBehavior: b.actual_behavior ?? undefined,
  }
}


export const priorityRank = (p: Priority) => PRIORITIES.indexOf(p)

/** What `reserveReport` took for a report not yet inserted: its id, number and filing time. */
export interface ReservedReport {
  id: string
  number: number
  now: Date
}

/**
 * Files a report inside `tx`: charges the plan's report quota, takes the next report number (the
 * project row's counter, bumped in the same transaction, so numbers never repeat or skip), reads
 * the error class, records activity and emits `bug_created`.
 */
export async function createReport(deps: Pick<AppDeps, 'clock' | 'events'>, tx: Query, project: { id: string; accountId: string }, input: NewReport): Promise<Report> {
  return insertReport(deps, tx, project, input, await reserveReport(deps, tx, project))
}

/**
 * The first half of filing a report (inside the caller's write `tx`): charges the quota and takes
 * the number. Imports reserve all their numbers first, then insert the reports quietly.
 */
export async function reserveReport(deps: Pick<AppDeps, 'clock'>, tx: Query, project: { id: string; accountId: string }): Promise<ReservedReport> {
  const repo = reportsRepositoryOf(tx)
  const now = deps.clock.now()
  // Both counters in one round trip on PostgreSQL: a quota exceeded throws below and the write rolls the number back.
  // Their rows stay locked to the COMMIT, so callers take them as late as they can.
  const [charged, number] = await together([repo.chargeReport(project.accountId), repo.takeNumber(project.id, now)] as const)
  if (!charged) throw forbidden('account not found')
  const plan = PLANS[charged.plan as PlanKey]
  if (exceeds(charged.used, plan.limits.reports)) throw new PlanLimitError((plans) => `${limitOwner(plan, plans)}'s limit of ${plan.limits.reports} reports is reached`, 'file more')
  return { id: newId(), number, now }
}

/**
 * The second half: the report row (with the reserved id, number and time), its first occurrence,
 * activity entry and `bug_created`. `quiet` (imports) leaves out the activity entry and the event: an
 * import records one entry for all its reports and sends no webhook or mail per report.
 */
export async function insertReport(deps: Pick<AppDeps, 'events'>, tx: Query, project: { id: string }, input: NewReport, reserved: ReservedReport, opts: { quiet?: boolean } = {}): Promise<Report> {
  const repo = reportsRepositoryOf(tx)
  const { now } = reserved
  const priority = input.priority ?? 'medium'
  const source = input.source ?? 'user'
  const errorType = input.errorType ?? extractErrorType(input.title, input.description)
  const grouping = input.fingerprint ? { fingerprint: input.fingerprint, label: input.groupingLabel ?? '' } : reportAdditions().groupingOfReport({ title: input.title, description: input.description, source, errorType })
  const evidence = {
    title: input.title,
    description: input.description,
    stepsToReproduce: input.stepsToReproduce ?? '',
    expectedBehavior: input.expectedBehavior ?? '',
    actualBehavior: input.actualBehavior ?? '',
    source,
    errorType,
    platform: input.platform ?? '',
    gameVersion: input.gameVersion ?? '',
    osInfo: input.osInfo ?? '',
    deviceInfo: input.deviceInfo ?? '',
    reporterName: input.reporterName ?? null,
    reporterEmail: input.reporterEmail ?? null,
    playerId: input.playerId || null,
    screenshotKey: input.screenshotKey ?? null,
    level: input.level ?? null,
    handled: input.handled === undefined || input.handled === null ? null : input.handled ? 1 : 0,
  }
  const at = input.occurredAt ?? now
  const report = await repo.insertNew({
    ...evidence,
    ...titleColumnsOf(input.title),
    id: reserved.id,
    projectId: project.id,
    reportNumber: reserved.number,
    priority,
    priorityRank: priorityRank(priority),
    category: input.category ?? 'other',
    metadata: input.metadata ?? null,
    sentimentScore: input.sentimentScore ?? null,
    sentimentLevel: input.sentimentLevel ?? null,
    createdBy: input.createdBy ?? null,
    fingerprint: grouping.fingerprint,
    groupingLabel: grouping.label,
    playerCount: input.withoutOccurrence || !evidence.playerId ? 0 : 1,
    versions: JSON.stringify(evidence.gameVersion ? [evidence.gameVersion] : []),
    at,
    now,
  })
  // What the new report brings with it, sent together (one round trip on PostgreSQL): each only adds rows about it.
  const rest: Promise<unknown>[] = []
  if (!input.withoutOccurrence) {
    const metadata = input.metadata === undefined || input.metadata === null ? null : JSON.stringify(input.metadata)
    // The report's first occurrence: the submission it was filed from, with its own copy of the evidence.
    const dimensions = input.dimensions ?? NO_DIMENSIONS
    const tags = tagsOfMetadata(input.metadata)
    const occurrence = { ...evidence, ...dimensions, id: input.occurrenceId ?? newId(), reportId: report.id, projectId: project.id, metadata, tags, client: input.client ?? null, eventId: input.eventId ?? null, crash: isCrash(input) ? (1 as const) : (0 as const), at, now }
    rest.push(reportAdditions().addOccurrence(tx, occurrence, report.seq), repo.addFacets(project.id, report.seq, facetsOfOccurrence({ ...evidence, ...dimensions, tags })))
  }
  if (!opts.quiet) {
    // The payload is built when a subscriber reads it (a webhook, a channel...): most projects have
    // none, and building it cost ~15 µs of every filed report.
    let data: Record<string, unknown> | undefined
    rest.push(
      repo.recordCreated({ projectId: project.id, reportId: report.id, actorId: input.createdBy ?? null, now }),
      deps.events.emit(tx, {
        type: 'bug_created',
        projectId: project.id,
        reportId: report.id,
        actorId: input.createdBy ?? null,
        get data() {
          data ??= serializeReportForEvent(report)
          return data
        },
      }),
    )
  }
  await together(rest)
  return report
}

/** The report as webhook and integration payloads show it: the list item plus its description. */
export function serializeReportForEvent(r: Report): Record<string, unknown> {
  const { labels: _labels, ...item } = listItemView(r, [])
  return { ...item, description: r.description }
}
