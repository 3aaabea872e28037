import { Badge, formatDate } from '../components'
import { reportHref } from './list-query'
import { CATEGORY_OPTIONS, labelOf } from './report-enums'
import { clientText, summaryParts, type Share } from './report-summary'
import type { Occurrence, ReportDetail } from './report-types'
import { PriorityBadge, StatusBadge } from './ReportRows'

type Bug = ReportDetail['bug']

/** Who filed it, as a badge: the game on its own (or a stack trace: auto-filed), a player, or (no badge) the team. */
function SourceBadge({ bug }: { bug: Bug }) {
  if (bug.auto_filed) return <Badge tone="danger">Auto-filed</Badge>
  return bug.created_by ? null : <Badge tone="info">Player report</Badge>
}

/**
 * What a triager asks first, at a glance: status and priority; how many events and players, since
 * when and until when in which versions, on which platforms; a regression; the client that sent it;
 * the grouping key; and the player feedback linked to it either way.
 */
export function ReportHeader({ slug, bug, platforms, first }: { slug: string; bug: Bug; platforms: Share[] | null; first: Occurrence | undefined }) {
  const parts = summaryParts(bug, platforms, Date.now())
  const via = clientText(first?.client)
  const link = (r: { report_number: number; title: string }) => (
    <a href={reportHref(slug, r.report_number)}>
      #{r.report_number} {r.title}
    </a>
  )
  return (
    <section class="report-header" aria-label="Summary">
      <div class="report-badges">
        <StatusBadge status={bug.status} />
        <PriorityBadge priority={bug.priority} />
        <Badge>{labelOf(CATEGORY_OPTIONS, bug.category)}</Badge>
        {bug.is_private && <Badge tone="warning">Private</Badge>}
        <SourceBadge bug={bug} />
        {bug.public_page.shown && <Badge tone="success">Public</Badge>}
        {bug.regressed_in_version !== null && <Badge tone="danger">{bug.regressed_in_version ? `Regressed in ${bug.regressed_in_version}` : 'Regressed'}</Badge>}
        {via && <span class="muted small">{via}</span>}
      </div>
      <p class="report-summary">
        {parts.map((p, i) => (
          <span key={p.text}>
            {i > 0 && ' · '}
            {p.at ? (
              <time dateTime={p.at} title={formatDate(p.at)}>
                {p.text}
              </time>
            ) : (
              p.text
            )}
          </span>
        ))}
      </p>
      {(bug.grouping_label || bug.fingerprint) && (
        <p class="small muted report-grouping">
          Grouped by <code title={`Fingerprint ${bug.fingerprint}`}>{bug.grouping_label || bug.fingerprint}</code>
        </p>
      )}
      {bug.feedback_for && <p class="small">Player feedback on {link(bug.feedback_for)}</p>}
      {bug.feedback.length > 0 && (
        <div class="small">
          Player feedback about this report:
          <ul class="inline-list">
            {bug.feedback.map((f) => (
              <li key={f.report_number}>{link(f)}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  )
}
