import { badRequest } from '../../../http/errors'
import { STATUSES } from '../../reports/reports.types'
import type { DeliveryPayload } from './provider.types'
import { reportPageUrl } from '../../reports/report-links'

/**
 * How issue trackers work here (linear.ts is the model for jira, clickup, asana, trello, airtable,
 * monday and notion):
 * - `actionsFor` is `trackerActions`: `file` on bug_created (at or above min_priority), `move` on a
 *   bug_updated that changes the status (only once the report has a link through that connection).
 * - `deliver(ctx, {action: 'file'}, link)` returns the issue as `link` (stored on the report); when
 *   `link` is already set the report was filed before (by hand or by an earlier try) and nothing is sent.
 * - `deliver(ctx, {action: 'move'}, link)` moves `link` to the state `targetState` names and returns
 *   `link` with its new `state`; without a link yet it throws ProviderError so the job retries later.
 * - POST /bugs/{number}/issues calls `deliver` with `file` at once (integrations/issue-links.service.ts).
 * - Titles and bodies come from `issueTitle` and `issueDescription`; `config.status_map` from `statusMapOf`.
 */
export function trackerActions(event: { type: string; changes?: Record<string, [unknown, unknown]> }): string[] {
  if (event.type === 'bug_created') return ['file']
  if (event.type === 'bug_updated' && event.changes?.status) return ['move']
  return []
}

/** The issue's title: the report's title with its number. */
export const issueTitle = (payload: DeliveryPayload) => `${String(payload.report?.title ?? '')} (#${payload.report?.report_number})`.slice(0, 250)

/** The issue's body in Markdown: the report's fields that are set, its description and a link back. */
export function issueDescription(payload: DeliveryPayload, publicUrl: string): string {
  const r = (payload.report ?? {}) as Record<string, unknown>
  const fields = ['priority', 'status', 'category', 'platform', 'game_version', 'error_type', 'occurrences', 'upvotes']
    .filter((k) => r[k] !== undefined && r[k] !== null && r[k] !== '')
    .map((k) => `- **${k}**: ${String(r[k])}`)
  return [`${String(r.description ?? '')}`.slice(0, 20_000), '', ...fields, '', `[Open report #${r.report_number} in Glitchbox](${reportPageUrl(publicUrl, payload.project.slug, Number(r.report_number))})`].join('\n')
}

/** `config.status_map`: our status → the tracker's state name; 400 naming the field for anything else. */
export function statusMapOf(config: Record<string, unknown>): Record<string, string> {
  const m = config.status_map ?? {}
  if (typeof m !== 'object' || Array.isArray(m)) throw badRequest('config.status_map must be an object of status → state name')
  for (const [k, v] of Object.entries(m)) {
    if (!(STATUSES as readonly string[]).includes(k)) throw badRequest(`config.status_map: ${k} is not a status (use ${STATUSES.join(', ')})`)
    if (typeof v !== 'string' || !v.trim()) throw badRequest(`config.status_map.${k} must be a state name`)
  }
  return m as Record<string, string>
}

/** The report's new status of a `move` delivery. */
export const newStatus = (payload: DeliveryPayload) => String(payload.changes?.status?.[1] ?? payload.report?.status ?? '')
