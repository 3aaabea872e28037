import type { DeliveryPayload } from './provider.types'
import { issueDescription, statusMapOf } from './tracker'
import { reportPageUrl } from '../../reports/report-links'

/**
 * Airtable, monday and Notion file a report into a table whose columns the studio chose: we fill the
 * columns whose names match these field names (case-insensitive; spaces, dashes and underscores alike,
 * so "Game version" is game_version) and leave every other column alone.
 */
export const MATCHED_FIELDS = ['title', 'description', 'status', 'priority', 'category', 'platform', 'game_version', 'report_number', 'link'] as const
export type MatchedField = (typeof MATCHED_FIELDS)[number]

/** A name or label compared loosely: lower case, letters and digits, single spaces ("Critical ⚠️" is "critical", "Won't fix" is "wont fix"). */
export const normalize = (s: string) =>
  s
    .toLowerCase()
    .replace(/[_-]+/g, ' ')
    .replace(/[^a-z0-9 ]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()

/** The field a column name stands for, or null when it matches none of ours. */
export function matchedField(columnName: string): MatchedField | null {
  const n = normalize(columnName)
  return MATCHED_FIELDS.find((f) => normalize(f) === n) ?? null
}

/** Our values for the matched fields: plain strings, the report number as a number; absent when the report has none. */
export function fieldValues(payload: DeliveryPayload, publicUrl: string): Partial<Record<MatchedField, string | number>> {
  const r = (payload.report ?? {}) as Record<string, unknown>
  const out: Partial<Record<MatchedField, string | number>> = {
    title: String(r.title ?? ''),
    description: issueDescription(payload, publicUrl),
    report_number: Number(r.report_number),
    link: reportPageUrl(publicUrl, payload.project.slug, Number(r.report_number)),
  }
  for (const k of ['status', 'priority', 'category', 'platform', 'game_version'] as const) {
    if (r[k] !== undefined && r[k] !== null && r[k] !== '') out[k] = String(r[k])
  }
  return out
}

/** The state names a status looks for in a tracker's own options when `config.status_map` names none, best first. */
const STATUS_NAMES: Record<string, string[]> = {
  open: ['Open', 'To do', 'Todo', 'Not started', 'Backlog', 'New'],
  in_progress: ['In progress', 'Working on it', 'Doing', 'Started'],
  resolved: ['Resolved', 'Done', 'Fixed', 'Complete', 'Completed'],
  closed: ['Closed', 'Done', 'Complete', 'Completed'],
  wont_fix: ["Won't fix", 'Wont do', 'Canceled', 'Cancelled'],
}

/** The names a status may take in the tracker: the one `config.status_map` gives, else our usual candidates. */
export function statusCandidates(config: Record<string, unknown>, status: string): { names: string[]; mapped: boolean } {
  const wanted = statusMapOf(config)[status]
  return wanted ? { names: [wanted], mapped: true } : { names: STATUS_NAMES[status] ?? [status], mapped: false }
}

/** The first option (a select's choice, a status label) equal to one of `names` after normalizing, in the order of `names`. */
export function pickOption(options: string[], names: string[]): string | null {
  for (const name of names) {
    const n = normalize(name)
    const hit = options.find((o) => normalize(o) === n)
    if (hit !== undefined) return hit
  }
  return null
}

/** The option for a value of ours: the status through status_map or its candidates, other values by name ("high" picks "High"). */
export function optionFor(field: MatchedField, value: string | number, options: string[], config: Record<string, unknown>): string | null {
  if (field === 'status') return pickOption(options, statusCandidates(config, String(value)).names)
  return pickOption(options, [String(value)])
}
