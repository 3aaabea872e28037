import { useEffect, useMemo, useState } from 'preact/hooks'
import { createResource } from '../api/resource'
import { Async, Badge, type Bar, BarChart, Button, ConfirmDialog, EmptyState, formatDate, toast } from '../components'
import { navigate } from '../router'
import { reportHref } from './list-query'
import { usePermissions } from './project-lookups'
import { ago, countText, type Share } from './report-summary'
import type { Occurrence, OccurrenceDistribution } from './report-types'
import { reportsApi } from './reports-api'

/** Rows of the occurrences table per page: a glance, not the page's whole height. */
export const OCCURRENCE_ROWS = 10

/** One dimension of the distribution as bars (the charts' BarChart), with what the listed values leave out. */
function Bars({ title, label, shares, total, unnamed }: { title: string; label: string; shares: Share[]; total: number; unnamed: string }) {
  const rest = total - shares.reduce((n, s) => n + s.count, 0)
  const rows: Bar[] = shares.map((s) => ({ label: s.value || unnamed, value: s.count, text: countText(s.count) }))
  if (rest > 0) rows.push({ label: 'others', value: null, text: countText(rest) })
  return <BarChart title={title} label={label} rows={rows} />
}

/** How the occurrences spread over versions (newest first) and platforms (most first). */
export function Distribution({ distribution }: { distribution: OccurrenceDistribution }) {
  return (
    <div class="distribution">
      <Bars title="By version" label="Version" shares={distribution.versions} total={distribution.total} unnamed="no version" />
      <Bars title="By platform" label="Platform" shares={distribution.platforms} total={distribution.total} unnamed="no platform" />
    </div>
  )
}

const where = (o: Occurrence) => [o.game_version, o.platform, o.device_info].filter(Boolean).join(' · ')

/**
 * Every submission grouped into this report: the distribution by version and platform, then a compact
 * table (10 a page, newest first) whose rows show their evidence above (and say which sent a screenshot), and a split of chosen ones
 * into a new report that lists what it takes before it does.
 */
export function ReportOccurrences({
  slug,
  number,
  count,
  distribution,
  shownId,
  onShow,
  onSplit,
}: {
  slug: string
  number: number
  count: number
  distribution: OccurrenceDistribution | undefined
  shownId: string | undefined
  onShow: (o: Occurrence) => void
  onSplit: () => void
}) {
  const [page, setPage] = useState(1)
  const [chosen, setChosen] = useState<Map<string, Occurrence>>(new Map())
  const [confirming, setConfirming] = useState(false)
  const occurrences = useMemo(() => createResource((signal) => reportsApi.occurrences(slug, number, { page, perPage: OCCURRENCE_ROWS }, signal)), [slug, number, page, count])
  useEffect(() => void occurrences.reload(), [occurrences])
  useEffect(() => setChosen(new Map()), [slug, number, count])
  const reason = usePermissions(slug).reason('bugs.edit')
  const split = async () => {
    const created = await reportsApi.split(slug, number, [...chosen.keys()])
    toast(`${chosen.size} occurrence${chosen.size === 1 ? '' : 's'} moved to report #${created.report_number}`)
    setChosen(new Map())
    onSplit()
    navigate(reportHref(slug, created.report_number))
  }
  const toggle = (o: Occurrence) =>
    setChosen((m) => {
      const next = new Map(m)
      if (!next.delete(o.id)) next.set(o.id, o)
      return next
    })
  const picked = [...chosen.values()].sort((a, b) => a.created_at.localeCompare(b.created_at))
  return (
    <section class="card report-occurrences" aria-labelledby="occurrences-title">
      <h2 id="occurrences-title">Occurrences ({countText(count)})</h2>
      {distribution && count > 1 && <Distribution distribution={distribution} />}
      <Async resource={occurrences} label="Loading occurrences…" isEmpty={(p) => p.occurrences.length === 0} empty={<EmptyState title="No occurrences recorded" />}>
        {(p) => (
          <>
            <div class="table-wrap">
              <table class="table table-compact">
                <caption class="sr-only">Occurrences, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col" class="col-check">
                      <span class="sr-only">Choose for a split</span>
                    </th>
                    <th scope="col">When</th>
                    <th scope="col">Version</th>
                    <th scope="col">Platform</th>
                    <th scope="col">Device / OS</th>
                    <th scope="col">Player</th>
                    <th scope="col">
                      <span class="sr-only">Evidence</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {p.occurrences.map((o) => (
                    <tr key={o.id} class={o.id === shownId ? 'is-current' : undefined}>
                      <td class="col-check">
                        <input type="checkbox" hidden={count < 2} aria-label={`Choose the occurrence of ${formatDate(o.created_at)} for a split`} checked={chosen.has(o.id)} disabled={Boolean(reason)} onChange={() => toggle(o)} />
                      </td>
                      <td>
                        <time dateTime={o.created_at} title={formatDate(o.created_at)}>
                          {ago(o.created_at, Date.now())}
                        </time>
                      </td>
                      <td>{o.game_version || '–'}</td>
                      <td>{o.platform || '–'}</td>
                      <td class="col-wrap">{[o.device_info, o.os_info].filter(Boolean).join(' · ') || '–'}</td>
                      <td class="col-wrap">{o.reporter_name ?? o.player_id ?? '–'}</td>
                      <td class="col-evidence">
                        {o.screenshot_url && (
                          <Badge tone="info">Screenshot</Badge>
                        )}{' '}
                        <button type="button" class="linklike" aria-pressed={o.id === shownId} aria-label={`${o.id === shownId ? 'Shown:' : 'Show'} the occurrence of ${formatDate(o.created_at)}`} onClick={() => onShow(o)}>
                          {o.id === shownId ? 'Shown' : 'Show'}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div class="spread">
              {count > 1 ? (
                <Button reason={reason} disabled={chosen.size === 0 || chosen.size >= count} onClick={() => setConfirming(true)}>
                  {chosen.size ? `Split ${chosen.size} into a new report…` : 'Split into a new report…'}
                </Button>
              ) : (
                <span />
              )}
              {p.total > p.per_page && (
                <nav class="pager" aria-label="Occurrence pages">
                  <Button size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                    Newer
                  </Button>
                  <span>
                    Page {page} of {Math.ceil(p.total / p.per_page)}
                  </span>
                  <Button size="sm" disabled={page * p.per_page >= p.total} onClick={() => setPage(page + 1)}>
                    Older
                  </Button>
                </nav>
              )}
            </div>
          </>
        )}
      </Async>
      <ConfirmDialog
        open={confirming}
        title={`Split ${chosen.size} occurrence${chosen.size === 1 ? '' : 's'} into a new report?`}
        confirmLabel="Split"
        danger={false}
        message={
          <>
            <p>These move to a new report, with their files; the oldest of them gives it its title and text. {countText(count - chosen.size)} stay here.</p>
            <ul class="split-list" aria-label="Occurrences the split takes">
              {picked.map((o) => (
                <li key={o.id}>
                  <time dateTime={o.created_at}>{formatDate(o.created_at)}</time>
                  {where(o) && ` · ${where(o)}`}
                  {(o.reporter_name ?? o.player_id) && ` · ${o.reporter_name ?? o.player_id}`}
                </li>
              ))}
            </ul>
          </>
        }
        onConfirm={split}
        onClose={() => setConfirming(false)}
      />
    </section>
  )
}
