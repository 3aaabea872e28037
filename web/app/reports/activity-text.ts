import { CATEGORY_OPTIONS, labelOf, PRIORITY_OPTIONS, STATUS_OPTIONS } from './report-enums'
import type { ActivityEntry } from './report-types'

const FIELD_NAMES: Record<string, string> = {
  status: 'status',
  priority: 'priority',
  category: 'category',
  assigned_to: 'assignee',
  is_private: 'visibility',
  title: 'title',
  description: 'description',
  platform: 'platform',
  published: 'publication',
  on_roadmap: 'roadmap',
}

/** A field the activity log has no name for, as words: `steps_to_reproduce` → "steps to reproduce". */
const fieldName = (field: string | null): string => (field ? (FIELD_NAMES[field] ?? field.replace(/_/g, ' ')) : 'a field')

const LONG_FIELDS = new Set(['description'])

/** `2026-12-05T23:59:59.999Z` → "5 Dec 2026" (due dates are kept as the end of a UTC day); anything else as it is. */
export function dayText(iso: string, withTime = false): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const day = d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
  return withTime ? `${day}, ${d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })} UTC` : day
}

/** `[3,4]` → "#3 and #4"; a single number → "#3". */
function numbersText(value: string | null): string {
  let list: unknown = value
  try {
    list = JSON.parse(value ?? '')
  } catch {
    // a plain number or text
  }
  const numbers = (Array.isArray(list) ? list : [list]).filter((n) => n !== null && n !== '').map((n) => `#${n}`)
  return numbers.length > 1 ? `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}` : (numbers[0] ?? 'a report')
}

/** A change of the due date, a custom field or another field that is not one of the report's own columns; null when it is one. */
function otherField(field: string | null, oldValue: string | null, newValue: string | null): string | null {
  if (field === 'due_date') {
    if (!newValue) return 'cleared the due date'
    return oldValue ? `moved the due date from ${dayText(oldValue)} to ${dayText(newValue)}` : `set the due date to ${dayText(newValue)}`
  }
  if (field?.startsWith('custom:')) {
    const name = field.slice('custom:'.length)
    return newValue === null || newValue === '' || newValue === 'null' ? `cleared ${name}` : `set ${name} to “${newValue.replace(/^"|"$/g, '')}”`
  }
  return null
}

/** One value of a field as a person reads it (`userName` turns user ids into names). */
function valueText(field: string | null, value: string | null, userName: (id: string) => string): string {
  if (value === null || value === '') return field === 'assigned_to' ? 'nobody' : 'empty'
  switch (field) {
    case 'status':
      return labelOf(STATUS_OPTIONS, value)
    case 'priority':
      return labelOf(PRIORITY_OPTIONS, value)
    case 'category':
      return labelOf(CATEGORY_OPTIONS, value)
    case 'assigned_to':
      return userName(value)
    case 'is_private':
      return value === 'true' ? 'private' : 'public'
    default:
      return `“${value}”`
  }
}

/** What an activity entry says, without its actor and time: "changed status from Open to Resolved". */
export function describeActivity(entry: Pick<ActivityEntry, 'action' | 'field' | 'old_value' | 'new_value'>, userName: (id: string) => string = (id) => id): string {
  const { action, field, old_value: oldValue, new_value: newValue } = entry
  switch (action) {
    case 'created':
      return 'filed the report'
    case 'updated': {
      const other = otherField(field, oldValue, newValue)
      if (other) return other
      const name = fieldName(field)
      if (field && LONG_FIELDS.has(field)) return `edited the ${name}`
      if (field === 'assigned_to' && newValue) return `assigned it to ${valueText(field, newValue, userName)}`
      if (field === 'assigned_to') return 'unassigned it'
      if (field === 'is_private') return `made it ${valueText(field, newValue, userName)}`
      if (field === 'published') return newValue === 'true' ? 'published it on the public tracker' : 'took it off the public tracker'
      if (field === 'on_roadmap') return newValue === 'true' ? 'put it on the roadmap' : 'took it off the roadmap'
      return `changed ${name} from ${valueText(field, oldValue, userName)} to ${valueText(field, newValue, userName)}`
    }
    case 'commented':
      return newValue === 'internal' ? 'added an internal comment' : 'commented'
    case 'labeled':
      return `added the label “${newValue ?? ''}”`
    case 'unlabeled':
      return `removed the label “${newValue ?? oldValue ?? ''}”`
    case 'attached':
      return `attached ${newValue ?? 'a file'}`
    case 'split':
      return `split occurrences into report #${newValue ?? '?'}`
    case 'deleted':
      return 'deleted the report'
    case 'merged':
      return `merged ${numbersText(newValue)} into this report`
    case 'merged_into':
      return `merged this report into ${numbersText(newValue)}`
    case 'regressed':
      return `reopened it as a regression${newValue ? `: seen again in ${newValue}` : ''}${oldValue ? ` after the fix in ${oldValue}` : ''}`
    case 'symbolicated':
      return `symbolicated it after symbols for ${newValue ?? 'a module'} were uploaded`
    case 'feedback':
      return `received player feedback in report ${numbersText(newValue)}`
    case 'sla_breached':
      return `missed the ${field === 'response' ? 'first-response' : 'resolution'} SLA${newValue ? ` (due ${dayText(newValue, true)})` : ''}`
    case 'imported':
      return `imported ${newValue ?? 'reports'}`
    case 'dependency_added':
      if (field === 'blocks') return `marked it as blocking ${newValue ?? 'a report'}`
      if (field === 'blocked_by') return `marked it as blocked by ${newValue ?? 'a report'}`
      return `linked report ${newValue ?? ''}`.trim()
    case 'dependency_removed':
      if (field === 'blocks') return `removed that it blocks ${oldValue ?? 'a report'}`
      if (field === 'blocked_by') return `removed that it is blocked by ${oldValue ?? 'a report'}`
      return `unlinked report ${oldValue ?? newValue ?? ''}`.trim()
    default:
      return [action.replace(/_/g, ' '), field && fieldName(field), newValue].filter(Boolean).join(' ')
  }
}
