import type { SQL } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'

/** The SLA states the list filters on (`sla=`). */
export type SlaState = 'ok' | 'at_risk' | 'breached'

/**
 * What the workflow domain adds to reports: custom fields on a new report and in the list's filter,
 * SLA clocks on a report, a list page and in the list's filter. Workflow registers them when its
 * module loads (workflow.module.ts, loaded with every module by the registry), so reports imports
 * none of workflow's services while workflow's services read reports: no circle between them.
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
}

let registered: ReportAdditions | null = null

/** Registers workflow's additions (once, when its module loads). */
export function addToReports(a: ReportAdditions): void {
  registered = a
}

/** The registered additions; a process that reads reports loads every module first. */
export function reportAdditions(): ReportAdditions {
  if (!registered) throw new Error('reports: the workflow module is not loaded (import src/modules/registry)')
  return registered
}
