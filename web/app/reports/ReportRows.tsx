import type { Member } from '../api/types'
import { Badge, formatDate } from '../components'
import { reportHref, type ListQuery } from './list-query'
import { memberName } from './project-lookups'
import { CATEGORY_OPTIONS, labelOf, PRIORITY_OPTIONS, STATUS_OPTIONS } from './report-enums'
import type { ReportListItem } from './report-types'

const PRIORITY_TONE = { critical: 'danger', high: 'warning', medium: 'info', low: 'neutral' } as const
const STATUS_TONE = { open: 'info', in_progress: 'warning', resolved: 'success', closed: 'neutral', wont_fix: 'neutral' } as const

/** The label chips of a report; the color is a data value, applied only as a CSS color. */
export function LabelChips({ labels }: { labels: { id?: string; name: string; color: string }[] }) {
  return (
    <>
      {labels.map((l) => (
        <span key={l.id ?? l.name} class="label-chip" style={{ '--label-color': /^#[0-9a-fA-F]{6}$/.test(l.color) ? l.color : '#2E5BFF' }}>
          {l.name}
        </span>
      ))}
    </>
  )
}

export const StatusBadge = ({ status }: { status: ReportListItem['status'] }) => <Badge tone={STATUS_TONE[status]}>{labelOf(STATUS_OPTIONS, status)}</Badge>
export const PriorityBadge = ({ priority }: { priority: ReportListItem['priority'] }) => <Badge tone={PRIORITY_TONE[priority]}>{labelOf(PRIORITY_OPTIONS, priority)}</Badge>

/** The list's table: a checkbox per row, the keyboard cursor on one row, titles linking to the report (remembering this list). */
export function ReportRows({
  slug,
  query,
  bugs,
  members,
  cursor,
  selected,
  onToggle,
  onToggleAll,
  onCursor,
}: {
  slug: string
  query: ListQuery
  bugs: ReportListItem[]
  members: Member[] | undefined
  cursor: number
  selected: ReadonlySet<number>
  onToggle: (n: number) => void
  onToggleAll: (on: boolean) => void
  onCursor: (i: number) => void
}) {
  const all = bugs.length > 0 && bugs.every((b) => selected.has(b.report_number))
  return (
    <div class="table-wrap">
      <table class="table report-table">
        <caption class="sr-only">Reports</caption>
        <thead>
          <tr>
            <th scope="col" class="col-check">
              <input type="checkbox" aria-label="Select all reports on this page" checked={all} onChange={(e) => onToggleAll(e.currentTarget.checked)} />
            </th>
            <th scope="col">#</th>
            <th scope="col">Title</th>
            <th scope="col">Status</th>
            <th scope="col">Priority</th>
            <th scope="col">Category</th>
            <th scope="col">Assignee</th>
            <th scope="col" class="num">
              Occurrences
            </th>
            <th scope="col" class="num">
              Votes
            </th>
            <th scope="col">Filed</th>
          </tr>
        </thead>
        <tbody>
          {bugs.map((b, i) => (
            <tr key={b.id} class={i === cursor ? 'is-current' : undefined} aria-current={i === cursor ? 'true' : undefined} data-report={b.report_number} onClick={() => onCursor(i)}>
              <td class="col-check">
                <input type="checkbox" aria-label={`Select report #${b.report_number}`} checked={selected.has(b.report_number)} onChange={() => onToggle(b.report_number)} />
              </td>
              <td class="muted">{b.report_number}</td>
              <td class="report-title-cell">
                <a href={reportHref(slug, b.report_number, query)}>{b.title}</a>
                {b.is_private && <Badge>Private</Badge>}
                {b.source === 'system' && <Badge tone="danger">Auto-filed</Badge>}
                {b.error_type && <code class="error-type">{b.error_type}</code>}
                <LabelChips labels={b.labels} />
              </td>
              <td>
                <StatusBadge status={b.status} />
              </td>
              <td>
                <PriorityBadge priority={b.priority} />
              </td>
              <td>{labelOf(CATEGORY_OPTIONS, b.category)}</td>
              <td>{memberName(members, b.assigned_to)}</td>
              <td class="num">{b.occurrences}</td>
              <td class="num">{b.upvotes}</td>
              <td>
                <time dateTime={b.created_at}>{formatDate(b.created_at)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
