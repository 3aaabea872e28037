import './reports.css'
import type { ComponentChildren } from 'preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { createResource } from '../api/resource'
import type { Member } from '../api/types'
import { Async, Badge, formatDate, Page } from '../components'
import { currentSearch, type RouteProps } from '../router'
import { splitDescription } from './description-sections'
import { lastOpened } from './last-opened'
import { Linkified } from './Linkified'
import { listFromReportSearch } from './list-query'
import { useProjectLookups } from './project-lookups'
import { ReportActivity } from './ReportActivity'
import { ReportComments } from './ReportComments'
import { ReportControls } from './ReportControls'
import { ReportLabels } from './ReportLabels'
import { Attachments, Screenshot } from './ReportMedia'
import { ReportNeighbours } from './ReportNeighbours'
import { ReportOccurrences } from './ReportOccurrences'
import { ReportPublication } from './ReportPublication'
import { CATEGORY_OPTIONS, labelOf, SOURCE_OPTIONS } from './report-enums'
import type { Report } from './report-types'
import { PriorityBadge, StatusBadge } from './ReportRows'
import { reportsApi } from './reports-api'
import { SimilarReports } from './SimilarReports'
import { WorkflowPanel } from '../workflow/WorkflowPanel'
import { LinkedIssues } from '../integrations/LinkedIssues'
import { ReportTelemetry } from '../analytics/ReportTelemetry'

/** `/projects/:slug/reports/:number`: everything about one report and the controls to triage it. */
export function ReportPage({ params }: RouteProps) {
  const slug = params.slug!
  const number = /^[1-9]\d{0,14}$/.test(params.number ?? '') ? Number(params.number) : 0
  const from = useMemo(() => listFromReportSearch(currentSearch.value), [currentSearch.value])
  const detail = useMemo(() => createResource((signal) => reportsApi.read(slug, number, signal)), [slug, number])
  const [version, setVersion] = useState(0)
  useEffect(() => {
    lastOpened.number = number
  }, [number])
  useEffect(() => void detail.reload(), [detail])
  const lookups = useProjectLookups(slug)
  const members = lookups.members.data.value
  const changed = () => {
    void detail.reload()
    setVersion((v) => v + 1)
  }
  const bug = detail.data.value?.bug
  return (
    <Page title={bug ? `#${bug.report_number} ${bug.title}` : `Report #${params.number ?? ''}`} actions={<ReportNeighbours slug={slug} number={number} from={from} />}>
      <Async resource={detail} label="Loading the report…">
        {({ bug, comments }) => (
          <div class="report-layout">
            <div class="report-main">
              <div class="report-badges">
                <StatusBadge status={bug.status} />
                <PriorityBadge priority={bug.priority} />
                <Badge>{labelOf(CATEGORY_OPTIONS, bug.category)}</Badge>
                {bug.is_private && <Badge tone="warning">Private</Badge>}
                {bug.auto_filed && <Badge tone="danger">Auto-filed</Badge>}
                {bug.public_page.shown && <Badge tone="success">Public</Badge>}
              </div>
              <Description bug={bug} />
              {bug.screenshot_url && <Screenshot url={bug.screenshot_url} title={bug.title} />}
              <Attachments slug={slug} number={bug.report_number} version={version} />
              <Metadata value={bug.metadata} />
              <ReportTelemetry slug={slug} number={bug.report_number} perfCount={bug.perf_snapshot_count} replayCount={bug.replay_count} />
              <ReportOccurrences slug={slug} number={bug.report_number} count={bug.occurrences} onSplit={changed} />
              <ReportComments slug={slug} number={bug.report_number} comments={comments} onAdded={changed} />
              <ReportActivity slug={slug} number={bug.report_number} version={version} members={members} reporter={bug.source === 'system' ? 'The game SDK' : (bug.reporter_name ?? 'A player')} />
            </div>
            <aside class="report-side" aria-label="Report details">
              <ReportControls slug={slug} bug={bug} members={members} onSaved={changed} />
              <ReportPublication slug={slug} bug={bug} onSaved={changed} />
              <ReportLabels
                slug={slug}
                number={bug.report_number}
                current={bug.labels}
                all={lookups.labels.data.value}
                onChanged={(created) => {
                  if (created) void lookups.labels.reload()
                  changed()
                }}
              />
              <WorkflowPanel slug={slug} number={bug.report_number} dueDate={bug.due_date} sla={bug.sla} onChange={changed} />
              <LinkedIssues slug={slug} number={bug.report_number} />
              <Details bug={bug} />
              <Reporter bug={bug} members={members} />
              <SimilarReports slug={slug} number={bug.report_number} title={bug.title} />
            </aside>
          </div>
        )}
      </Async>
    </Page>
  )
}

/** The player's text, then the stack trace and recent logs of auto-filed errors as code. */
function Description({ bug }: { bug: Report }) {
  const { text, stackTrace, recentLogs } = splitDescription(bug.description)
  const extra: [string, string | null][] = [
    ['Steps to reproduce', bug.steps_to_reproduce],
    ['Expected behavior', bug.expected_behavior],
    ['Actual behavior', bug.actual_behavior],
  ]
  return (
    <section class="card report-description">
      <h2>Description</h2>
      {text ? (
        <div class="prewrap">
          <Linkified text={text} />
        </div>
      ) : (
        <p class="muted">No description text.</p>
      )}
      {stackTrace !== null && (
        <>
          <h3>Stack trace</h3>
          <pre class="code-block" aria-label="Stack trace">
            <code>{stackTrace || '(empty)'}</code>
          </pre>
        </>
      )}
      {recentLogs !== null && (
        <>
          <h3>Recent logs</h3>
          <pre class="code-block" aria-label="Recent logs">
            <code>{recentLogs || '(empty)'}</code>
          </pre>
        </>
      )}
      {extra
        .filter(([, v]) => v)
        .map(([title, v]) => (
          <div key={title}>
            <h3>{title}</h3>
            <div class="prewrap">
              <Linkified text={v!} />
            </div>
          </div>
        ))}
    </section>
  )
}

/** What the game sent as metadata, pretty-printed as text inside a disclosure. */
function Metadata({ value }: { value: unknown }) {
  if (value === null || value === undefined) return null
  const empty = typeof value === 'object' && Object.keys(value as object).length === 0
  if (empty) return null
  return (
    <details class="card report-metadata">
      <summary>Metadata</summary>
      <pre class="code-block">
        <code>{JSON.stringify(value, null, 2)}</code>
      </pre>
    </details>
  )
}

const SENTIMENT_TONE = { positive: 'success', neutral: 'neutral', negative: 'danger' } as const

/** Where and when: platform, versions, device, source, error class, votes, sentiment, dates. */
function Details({ bug }: { bug: Report }) {
  const rows: [string, ComponentChildren][] = [
    ['Platform', bug.platform],
    ['Game version', bug.game_version],
    ['OS', bug.os_info],
    ['Device', bug.device_info],
    ['Source', labelOf(SOURCE_OPTIONS, bug.source)],
    ['Error type', bug.error_type ? <code>{bug.error_type}</code> : null],
    ['Upvotes', String(bug.upvotes)],
    ['Occurrences', String(bug.occurrences)],
    [
      'Sentiment',
      bug.sentiment_level ? (
        <>
          <Badge tone={SENTIMENT_TONE[bug.sentiment_level]}>{bug.sentiment_level}</Badge>
          {bug.sentiment_score !== null && <span class="muted"> (score {bug.sentiment_score})</span>}
        </>
      ) : null,
    ],
    ['Due', bug.due_date ? formatDate(bug.due_date, false) : null],
    ['Filed', <time dateTime={bug.created_at}>{formatDate(bug.created_at)}</time>],
    ['Updated', <time dateTime={bug.updated_at}>{formatDate(bug.updated_at)}</time>],
  ]
  return (
    <section class="card">
      <h2>Details</h2>
      <dl class="details-list">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v === null || v === '' || v === undefined ? '–' : v}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

/** Who filed it: the player's name, contact and ids, or the teammate. Team-only data: never on public pages. */
function Reporter({ bug, members }: { bug: Report; members: Member[] | undefined }) {
  const teammate = bug.created_by ? members?.find((m) => m.user_id === bug.created_by) : undefined
  const rows: [string, ComponentChildren][] = [
    ['Name', bug.reporter_name ?? (teammate ? teammate.name || teammate.email : null)],
    ['Email', bug.reporter_email ? <a href={`mailto:${bug.reporter_email}`}>{bug.reporter_email}</a> : null],
    ['Player ID', bug.player_id],
  ]
  const known = rows.filter(([, v]) => v)
  return (
    <section class="card">
      <h2>Reporter</h2>
      {known.length === 0 ? (
        <p class="muted">{bug.source === 'system' ? 'Filed automatically by the game SDK.' : 'No reporter details.'}</p>
      ) : (
        <dl class="details-list">
          {known.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
      <p class="muted small">Seen by the team only.</p>
    </section>
  )
}
