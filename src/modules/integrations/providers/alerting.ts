import type { Priority } from '../../reports/reports.types'
import type { DeliveryPayload } from './provider.types'
import { reportPageUrl } from '../../reports/report-links'

/** Statuses that end a report's incident: the incident is resolved (or the alert closed) with the report. */
export const ENDING_STATUSES = ['resolved', 'closed', 'wont_fix']

/** Alerting providers open on bug_created and close when bug_updated moves the status to an ending one. */
export function alertingActions(event: { type: string; changes?: Record<string, [unknown, unknown]> }): string[] {
  if (event.type === 'bug_created') return ['trigger']
  const status = event.changes?.status
  if (event.type === 'bug_updated' && status && ENDING_STATUSES.includes(String(status[1])) && !ENDING_STATUSES.includes(String(status[0]))) return ['resolve']
  return []
}

/** The incident's deduplication key (PagerDuty dedup_key, Opsgenie alias): one per report, stable across retries. */
export const incidentKey = (reportId: unknown) => `glitchbox-report-${reportId}`

/** What an incident says about its report. */
export function incidentFacts(payload: DeliveryPayload, publicUrl: string) {
  const r = (payload.report ?? {}) as Record<string, any>
  return {
    summary: `[${payload.project.name}] #${r.report_number} ${r.title ?? ''}`.trim(),
    priority: (r.priority ?? 'medium') as Priority,
    url: reportPageUrl(publicUrl, payload.project.slug, Number(r.report_number)),
    details: {
      project: payload.project.name,
      report_number: r.report_number,
      priority: r.priority,
      category: r.category,
      platform: r.platform,
      game_version: r.game_version,
      error_type: r.error_type,
    },
    description: String(r.description ?? ''),
    category: String(r.category ?? ''),
    errorType: String(r.error_type ?? ''),
  }
}
