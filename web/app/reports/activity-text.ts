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
}

const LONG_FIELDS = new Set(['description'])

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
      const name = FIELD_NAMES[field ?? ''] ?? field ?? 'a field'
      if (field && LONG_FIELDS.has(field)) return `edited the ${name}`
      if (field === 'assigned_to' && newValue) return `assigned it to ${valueText(field, newValue, userName)}`
      if (field === 'assigned_to') return 'unassigned it'
      if (field === 'is_private') return `made it ${valueText(field, newValue, userName)}`
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
    case 'dependency_added':
      return `linked report ${newValue ?? ''}`.trim()
    case 'dependency_removed':
      return `unlinked report ${oldValue ?? newValue ?? ''}`.trim()
    default:
      return [action.replace(/_/g, ' '), field, newValue].filter(Boolean).join(' ')
  }
}
