import type { SQL } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Query, Seam } from '../../db/client'
import type { LabelView } from './reports.views'
import type { Source } from './reports.types'

/** The SLA states the list filters on (`sla=`). */
export type SlaState = 'ok' | 'at_risk' | 'breached'

/**
 * What higher domains add to reports. Workflow: custom fields on a new report and in the list's filter,
 * SLA clocks on a report, a list page and in the list's filter. Ingest: a filed report's grouping and
 * first occurrence. Labels and analytics: a list page's labels and sparklines. Each registers its part
 * when its module loads (`<domain>.module.ts`, loaded with every module by the registry), so reports
 * imports none of them while they read reports: no circle between the domains.
 */
export interface ReportAdditions {
  /** Checks the custom field values sent with a new report (400 when one is wrong); the function returned writes them for the filed report. */
  checkNewReportValues(deps: Pick<AppDeps, 'db'>, projectId: string, sent?: Record<string, unknown>): Promise<(reportId: string, now: Date) => Promise<unknown>>
  /** The list filter `custom_field=<select field id>:<option>` (400 when it names no such option). */
  selectFieldFilter(deps: Pick<AppDeps, 'db'>, projectId: string, raw: string): Promise<{ fieldId: string; option: string }>
  /** One report's SLA clock as the API shows it, or null. */
  slaOfReport(deps: Pick<AppDeps, 'db'>, reportId: string, now: Date): Promise<unknown>
  /** A list page's SLA clocks as the API shows them, by report id. */
  slaOfReports(deps: Pick<AppDeps, 'db'>, reportIds: string[], now: Date): Promise<Map<string, unknown>>
  /** SQL over report_sla's columns for the list filter `sla=` (the placeholder `now` is the clock's time). */
  slaStateSql(state: SlaState): SQL
  /** The grouping key and label of a report filed without one (ingest/fingerprint.ts). */
  groupingOfReport(r: { title: string; description: string; source: string; errorType: string }): { fingerprint: string; label: string }
  /** Stores a filed report's first occurrence inside the filing write (ingest keeps occurrences and their players). */
  addOccurrence(tx: Query, occurrence: FirstOccurrence, reportSeq: number): Promise<unknown>
  /** Labels of many reports in one query, by report id. */
  labelsOfReports(db: Seam, reportIds: string[]): Promise<Map<string, LabelView[]>>
  /** A list page's daily counts over the last `days` for its sparklines, by report seq. */
  sparklines(db: Seam, rows: { seq: number; id: string }[], now: Date, days: number): Promise<Map<number, number[]>>
}

/** What an occurrence alone records of where it ran (the report row has no copy): runtime, browser, environment; '' when unnamed. */
export type OccurrenceDimensions = {
  runtime: string
  runtimeVersion: string
  browser: string
  browserVersion: string
  environment: string
}

/** An occurrence that named none of them. */
export const NO_DIMENSIONS: OccurrenceDimensions = { runtime: '', runtimeVersion: '', browser: '', browserVersion: '', environment: '' }

/** A report's first occurrence as filing builds it (reports.service.ts): the submission with its own copy of the evidence. */
export type FirstOccurrence = OccurrenceDimensions & {
  id: string
  reportId: string
  projectId: string
  title: string
  description: string
  stepsToReproduce: string
  expectedBehavior: string
  actualBehavior: string
  source: Source
  errorType: string
  deviceInfo: string
  osInfo: string
  platform: string
  gameVersion: string
  playerId: string | null
  reporterName: string | null
  reporterEmail: string | null
  metadata: string | null
  /** The tags of its metadata (report-tags.ts), which ingest keeps per occurrence. */
  tags: [string, string][]
  screenshotKey: string | null
  client: string | null
  eventId: string | null
  level: string | null
  /** 1 handled, 0 unhandled, null not said (bound as a number: the column's encoder would make null false). */
  handled: number | null
  crash: 0 | 1
  /** When it happened (the event's own time, clamped) and when it was received. */
  at: Date
  now: Date
}

const registered: Partial<ReportAdditions> = {}
const PARTS = ['checkNewReportValues', 'selectFieldFilter', 'slaOfReport', 'slaOfReports', 'slaStateSql', 'groupingOfReport', 'addOccurrence', 'labelsOfReports', 'sparklines'] as const satisfies readonly (keyof ReportAdditions)[]

/** Registers a domain's part of the additions (once, when its module loads). */
export function addToReports(a: Partial<ReportAdditions>): void {
  Object.assign(registered, a)
}

/** The registered additions; a process that reads reports loads every module first. */
export function reportAdditions(): ReportAdditions {
  const missing = PARTS.filter((k) => !registered[k])
  if (missing.length) throw new Error(`reports: the modules adding ${missing.join(', ')} are not loaded (import src/modules/registry)`)
  return registered as ReportAdditions
}
