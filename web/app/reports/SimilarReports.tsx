import { useEffect, useMemo } from 'preact/hooks'
import { createResource } from '../api/resource'
import { Async, EmptyState } from '../components'
import { reportHref } from './list-query'
import { StatusBadge } from './ReportRows'
import { reportsApi } from './reports-api'

/** Reports whose titles share significant words with this one (possible duplicates). */
export function SimilarReports({ slug, number, title }: { slug: string; number: number; title: string }) {
  const similar = useMemo(() => createResource(async (signal) => (await reportsApi.similar(slug, title, signal)).filter((r) => r.report_number !== number)), [slug, number, title])
  useEffect(() => void similar.reload(), [similar])
  return (
    <section class="card">
      <h2>Similar reports</h2>
      <Async resource={similar} label="Looking for similar reports…" empty={<EmptyState title="No similar reports" />}>
        {(list) => (
          <ul class="similar-list">
            {list.map((r) => (
              <li key={r.report_number}>
                <a href={reportHref(slug, r.report_number)}>
                  #{r.report_number} {r.title}
                </a>{' '}
                <StatusBadge status={r.status} />
              </li>
            ))}
          </ul>
        )}
      </Async>
    </section>
  )
}
