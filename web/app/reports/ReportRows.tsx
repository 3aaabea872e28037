import type { Member } from '../api/types'
import { Badge, formatDate, formatRelative } from '../components'
import { reportHref, type ListQuery } from './list-query'
import { memberName } from './project-lookups'
import { labelOf, PRIORITY_OPTIONS, STATUS_OPTIONS } from './report-enums'
import type { ReportListItem } from './report-types'
import { Sparkline } from './Sparkline'
import { Severity } from './Severity'
import { EscalatingBadge } from './ReportTrend'

/** The trend column's heading for each sparkline choice. */
const SPARK_HEADERS = {
  '14d': { short: '14 days', long: 'Events per day, last 14 days' },
  '30d': { short: '30 days', long: 'Events per day, last 30 days' },
  '24h': { short: '24 hours', long: 'Events per hour, last 24 hours' },
} as const

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

const SDK_PREFIX = /^\s*\[(?:Error|Crash|Freeze|Exception|Warning|Assert)\]/i

/** "1.2.0 → 1.3.0", one version when first and last are the same, a dash when none was named. */
export function versionSpan(b: Pick<ReportListItem, 'first_version' | 'last_version'>): string {
  if (!b.first_version && !b.last_version) return '–'
  if (!b.first_version || !b.last_version || b.first_version === b.last_version) return b.first_version || b.last_version
  return `${b.first_version} → ${b.last_version}`
}

/**
 * The list's table, dense: what a studio reads first (events, players, the 14-day trend, last seen,
 * the versions it spans) beside the title and the culprit frame under it; a checkbox per row, the keyboard cursor on one row, titles
 * linking to the report (remembering this list).
 */
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
  escalating = new Set(),
  now = Date.now(),
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
  /** The numbers of the page's escalating reports (marked beside their titles). */
  escalating?: ReadonlySet<number>
  /** The time "ago" counts from (tests pass a fixed one). */
  now?: number
}) {
  const spark = SPARK_HEADERS[query.spark ?? '14d']
  const all = bugs.length > 0 && bugs.every((b) => selected.has(b.report_number))
  return (
    <div class="table-wrap">
      <table class="table report-table dense">
        <caption class="sr-only">Reports</caption>
        <thead>
          <tr>
            <th scope="col" class="col-check">
              <input type="checkbox" aria-label="Select all reports on this page" checked={all} onChange={(e) => onToggleAll(e.currentTarget.checked)} />
            </th>
            <th scope="col">#</th>
            <th scope="col">Title</th>
            <th scope="col" class="num">
              Events
            </th>
            <th scope="col" class="num">
              Players
            </th>
            <th scope="col">
              <span aria-hidden="true">{spark.short}</span>
              <span class="sr-only">{spark.long}</span>
            </th>
            <th scope="col">Last seen</th>
            <th scope="col">Versions</th>
            <th scope="col">Status</th>
            <th scope="col">Priority</th>
            <th scope="col">Assignee</th>
            <th scope="col" class="num">
              Votes
            </th>
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
                {/* One line: the title cut with an ellipsis (whole on hover), its tags kept beside it. */}
                <div class="title-line">
                  <a href={reportHref(slug, b.report_number, query)} title={b.title}>
                    {b.title}
                  </a>
                  <span class="title-tags">
                    {escalating.has(b.report_number) && <EscalatingBadge />}
                    {b.is_private && <Badge>Private</Badge>}
                    {/* An SDK title ("[Error] NullReferenceException: …") already says both what filed it and the error type. */}
                    {b.source === 'system' && !SDK_PREFIX.test(b.title) && <Badge tone="danger">Auto-filed</Badge>}
                    {b.error_type && !b.title.includes(b.error_type) && <code class="error-type">{b.error_type}</code>}
                    <Severity level={b.level} handled={b.handled} />
                    <LabelChips labels={b.labels} />
                  </span>
                </div>
                {/* The culprit under the title, as Sentry shows it: the frame that tells two crashes of one type apart. */}
                {b.culprit && (
                  <div class="culprit-line">
                    <span class="sr-only">Culprit: </span>
                    <code class="culprit" title={b.culprit}>
                      {b.culprit}
                    </code>
                  </div>
                )}
              </td>
              <td class="num">{b.occurrence_count.toLocaleString()}</td>
              <td class="num">{b.player_count.toLocaleString()}</td>
              <td class="col-trend">
                <Sparkline counts={b.sparkline} unit={query.spark === '24h' ? 'hour' : 'day'} />
              </td>
              <td>
                <time dateTime={b.last_seen} title={formatDate(b.last_seen)}>
                  {formatRelative(b.last_seen, now)}
                </time>
              </td>
              <td class="col-versions" title={b.versions.length > 1 ? `Seen in ${b.versions.join(', ')}` : undefined}>
                {versionSpan(b)}
              </td>
              <td>
                <StatusBadge status={b.status} />
              </td>
              <td>
                <PriorityBadge priority={b.priority} />
              </td>
              <td>{memberName(members, b.assigned_to)}</td>
              <td class="num">{b.upvotes}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
