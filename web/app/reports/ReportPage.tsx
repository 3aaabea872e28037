import './reports.css'
import type { ComponentChildren } from 'preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { createResource } from '../api/resource'
import type { Member } from '../api/types'
import { Async, Badge, formatDate, Page, Spinner, toast } from '../components'
import { currentSearch, navigate, type RouteProps } from '../router'
import { splitDescription } from './description-sections'
import { lastOpened } from './last-opened'
import { Linkified } from './Linkified'
import { listFromReportSearch, reportHref } from './list-query'
import { MarkDuplicate } from './MarkDuplicate'
import { useProjectLookups } from './project-lookups'
import { ReportActivity } from './ReportActivity'
import { ReportComments } from './ReportComments'
import { ReportControls } from './ReportControls'
import { type Chosen, ReportEvidence } from './ReportEvidence'
import { ReportHeader } from './ReportHeader'
import { ReportLabels } from './ReportLabels'
import { Attachments } from './ReportMedia'
import { ReportNeighbours } from './ReportNeighbours'
import { ReportOccurrences } from './ReportOccurrences'
import { ReportPublication } from './ReportPublication'
import { labelOf, SOURCE_OPTIONS } from './report-enums'
import { countText, readable } from './report-summary'
import type { Occurrence, Report, ReportDetail } from './report-types'
import { reportsApi } from './reports-api'
import { SimilarReports } from './SimilarReports'
import { CodeText } from './StackTrace'
import { WorkflowPanel } from '../workflow/WorkflowPanel'
import { LinkedIssues } from '../integrations/LinkedIssues'
import { ReportTelemetry } from '../analytics/ReportTelemetry'
import { Severity } from './Severity'
import { ReportTags } from './ReportTags'
import { ReportTrend } from './ReportTrend'

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
  const bug = detail.data.value?.bug
  // A merged report's number: the read followed the server's redirect to the report it went into.
  useEffect(() => {
    if (bug && bug.report_number !== number) {
      toast(`Report #${number} was merged into #${bug.report_number}`)
      navigate(reportHref(slug, bug.report_number), { replace: true })
    }
  }, [bug, number])
  const changed = () => {
    void detail.reload()
    setVersion((v) => v + 1)
  }
  return (
    <Page title={bug ? `#${bug.report_number} ${bug.title}` : `Report #${params.number ?? ''}`} actions={<ReportNeighbours slug={slug} number={number} from={from} />}>
      <Async resource={detail} label="Loading the report…">
        {({ bug, comments }) => (bug.report_number === number ? <ReportBody slug={slug} bug={bug} comments={comments} version={version} onChanged={changed} /> : <Spinner label="Opening the report it was merged into…" />)}
      </Async>
    </Page>
  )
}

/** The page of a loaded report: header and evidence first, then occurrences, conversation and history; triage on the side. */
function ReportBody({ slug, bug, comments, version, onChanged }: { slug: string; bug: ReportDetail['bug']; comments: ReportDetail['comments']; version: number; onChanged: () => void }) {
  const number = bug.report_number
  const lookups = useProjectLookups(slug)
  const members = lookups.members.data.value
  // Occurrences and their spread change with the report (a new occurrence, a split, a merge): reloaded with it.
  const stamp = `${bug.occurrence_count}|${bug.last_seen}`
  const distribution = useMemo(() => createResource((signal) => reportsApi.distribution(slug, number, signal)), [slug, number, stamp])
  const first = useMemo(() => createResource((signal) => reportsApi.occurrences(slug, number, { order: 'oldest', perPage: 1 }, signal)), [slug, number, stamp])
  const latest = useMemo(() => createResource((signal) => reportsApi.occurrences(slug, number, { order: 'newest', perPage: 1 }, signal)), [slug, number, stamp])
  useEffect(() => {
    void distribution.reload()
    void first.reload()
    void latest.reload()
  }, [distribution, first, latest])
  const [chosen, setChosen] = useState<Chosen>({ kind: 'latest' })
  useEffect(() => setChosen({ kind: 'latest' }), [slug, number])
  const firstOccurrence = first.data.value?.occurrences[0]
  const none = latest.data.value?.total === 0
  const shown = none ? reportAsOccurrence(bug) : chosen.kind === 'picked' ? chosen.occurrence : chosen.kind === 'first' ? firstOccurrence : latest.data.value?.occurrences[0]
  const show = (c: Chosen) => {
    setChosen(c)
    document.getElementById('evidence-title')?.scrollIntoView({ block: 'start' })
  }
  return (
    <div class="report-layout">
      <div class="report-main">
        <ReportHeader slug={slug} bug={bug} platforms={distribution.data.value?.platforms ?? null} first={firstOccurrence} />
        <ReportEvidence slug={slug} bug={bug} occurrence={shown} failed={(chosen.kind === 'first' ? first : latest).error.value?.message} chosen={chosen} onChoose={show} />
        <Description bug={bug} />
        <ReportTrend slug={slug} number={number} stamp={stamp} />
        <ReportOccurrences
          slug={slug}
          number={number}
          count={bug.occurrence_count}
          distribution={distribution.data.value}
          shownId={shown?.id}
          onShow={(o) => show({ kind: 'picked', occurrence: o })}
          onSplit={onChanged}
        />
        <Attachments slug={slug} number={number} version={version} />
        <Metadata value={bug.metadata} />
        <ReportTelemetry slug={slug} number={number} perfCount={bug.perf_snapshot_count} replayCount={bug.replay_count} />
        <ReportComments slug={slug} number={number} comments={comments} onAdded={onChanged} />
        <ReportActivity slug={slug} number={number} version={version} members={members} reporter={bug.source === 'system' ? 'The game SDK' : (bug.reporter_name ?? 'A player')} />
      </div>
      <aside class="report-side" aria-label="Report details">
        <ReportControls slug={slug} bug={bug} members={members} onSaved={onChanged} />
        <ReportPublication slug={slug} bug={bug} onSaved={onChanged} />
        <Details bug={bug} />
        <ReportTags slug={slug} number={number} stamp={stamp} />
        <Reporter bug={bug} members={members} />
        <ReportLabels
          slug={slug}
          number={number}
          current={bug.labels}
          all={lookups.labels.data.value}
          onChanged={(created) => {
            if (created) void lookups.labels.reload()
            onChanged()
          }}
        />
        <WorkflowPanel slug={slug} number={number} dueDate={bug.due_date} sla={bug.sla} onChange={onChanged} />
        <LinkedIssues slug={slug} number={number} />
        <MarkDuplicate slug={slug} number={number} />
        <SimilarReports slug={slug} number={number} title={bug.title} onMerged={onChanged} />
      </aside>
    </div>
  )
}

/** The report's own fields as the evidence, for a report without any occurrence row (none is expected: every filing writes one). */
function reportAsOccurrence(bug: ReportDetail['bug']): Occurrence {
  return {
    id: bug.id,
    title: bug.title,
    description: bug.description,
    steps_to_reproduce: bug.steps_to_reproduce ?? '',
    expected_behavior: bug.expected_behavior ?? '',
    actual_behavior: bug.actual_behavior ?? '',
    source: bug.source,
    error_type: bug.error_type,
    device_info: bug.device_info ?? '',
    os_info: bug.os_info ?? '',
    platform: bug.platform ?? '',
    runtime: '',
    browser: '',
    environment: '',
    game_version: bug.game_version ?? '',
    player_id: bug.player_id,
    reporter_name: bug.reporter_name,
    reporter_email: bug.reporter_email,
    metadata: bug.metadata,
    screenshot_url: bug.screenshot_url,
    attachments: [],
    client: null,
    event_id: null,
    created_at: bug.created_at,
  }
}

/** The report's own text (the team's copy, editable) and the player's steps; its stack trace and logs are the evidence's. */
function Description({ bug }: { bug: Report }) {
  const { text } = splitDescription(bug.description)
  const extra: [string, string | null][] = [
    ['Steps to reproduce', bug.steps_to_reproduce],
    ['Expected behavior', bug.expected_behavior],
    ['Actual behavior', bug.actual_behavior],
  ]
  const shown = extra.filter(([, v]) => v)
  if (!text && shown.length === 0) return null
  return (
    <section class="card report-description">
      <h2>Description</h2>
      {text && (
        <div class="prewrap">
          <Linkified text={text} />
        </div>
      )}
      {shown.map(([title, v]) => (
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
      <CodeText label="Metadata">{JSON.stringify(value, null, 2)}</CodeText>
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
    ['Severity', bug.level || bug.handled !== undefined ? <Severity level={bug.level} handled={bug.handled} /> : null],
    ['Upvotes', countText(bug.upvotes)],
    ['Events', countText(bug.occurrence_count)],
    ['Players', countText(bug.player_count)],
    // A mood is read from words a player wrote: auto-filed crashes have none, so no row at all.
    ...(bug.source !== 'system'
      ? ([
          [
            'Sentiment',
            bug.sentiment_level ? (
              <>
                <Badge tone={SENTIMENT_TONE[bug.sentiment_level]}>{bug.sentiment_level}</Badge>
                {bug.sentiment_score !== null && <span class="muted"> (score {readable(bug.sentiment_score)})</span>}
              </>
            ) : null,
          ],
        ] as [string, ComponentChildren][])
      : []),
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
