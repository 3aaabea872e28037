import { useEffect, useMemo, useState } from 'preact/hooks'
import { createResource } from '../api/resource'
import { Async, Button, EmptyState, ExternalLink, formatDate, toast, useAction } from '../components'
import { navigate } from '../router'
import { reportHref } from './list-query'
import { usePermissions } from './project-lookups'
import { reportsApi } from './reports-api'

/** Every submission stacked onto this report (50 a page), with a split of chosen ones into a new report. */
export function ReportOccurrences({ slug, number, count, onSplit }: { slug: string; number: number; count: number; onSplit: () => void }) {
  const [page, setPage] = useState(1)
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const occurrences = useMemo(() => createResource((signal) => reportsApi.occurrences(slug, number, page, signal)), [slug, number, page])
  useEffect(() => {
    setChosen(new Set())
    void occurrences.reload()
  }, [occurrences])
  const reason = usePermissions(slug).reason('bugs.edit')
  const { busy, run: split } = useAction(
    async () => {
      const created = await reportsApi.split(slug, number, [...chosen])
      toast(`${chosen.size} occurrence${chosen.size === 1 ? '' : 's'} moved to report #${created.report_number}`)
      setChosen(new Set())
      onSplit()
      void occurrences.reload()
      navigate(reportHref(slug, created.report_number))
    },
    { toastErrors: true },
  )
  return (
    <section class="card report-occurrences">
      <h2>Occurrences ({count})</h2>
      <Async resource={occurrences} label="Loading occurrences…" isEmpty={(p) => p.occurrences.length === 0} empty={<EmptyState title="No other occurrences">Only the original submission: nothing was stacked onto this report.</EmptyState>}>
        {(p) => (
          <>
            <div class="table-wrap">
              <table class="table">
                <caption class="sr-only">Occurrences</caption>
                <thead>
                  <tr>
                    <th scope="col" class="col-check">
                      <span class="sr-only">Choose</span>
                    </th>
                    <th scope="col">When</th>
                    <th scope="col">Platform</th>
                    <th scope="col">Version</th>
                    <th scope="col">Device / OS</th>
                    <th scope="col">Player</th>
                    <th scope="col">Screenshot</th>
                  </tr>
                </thead>
                <tbody>
                  {p.occurrences.map((o) => (
                    <tr key={o.id}>
                      <td class="col-check">
                        <input
                          type="checkbox"
                          aria-label={`Choose the occurrence of ${formatDate(o.created_at)}${o.device_info ? ` on ${o.device_info}` : ''}`}
                          checked={chosen.has(o.id)}
                          disabled={Boolean(reason)}
                          onChange={() =>
                            setChosen((s) => {
                              const next = new Set(s)
                              if (!next.delete(o.id)) next.add(o.id)
                              return next
                            })
                          }
                        />
                      </td>
                      <td>
                        <time dateTime={o.created_at}>{formatDate(o.created_at)}</time>
                      </td>
                      <td>{o.platform ?? '–'}</td>
                      <td>{o.game_version ?? '–'}</td>
                      <td>{[o.device_info, o.os_info].filter(Boolean).join(' · ') || '–'}</td>
                      <td>{o.reporter_name ?? o.player_id ?? '–'}</td>
                      <td>
                        {o.screenshot_url ? (
                          <ExternalLink href={o.screenshot_url}>View</ExternalLink>
                        ) : (
                          '–'
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div class="row">
              <Button reason={reason} disabled={chosen.size === 0} busy={busy} onClick={split}>
                Split {chosen.size || ''} into a new report
              </Button>
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
    </section>
  )
}
