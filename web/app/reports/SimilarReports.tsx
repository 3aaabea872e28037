import { useEffect, useMemo, useState } from 'preact/hooks'
import { createResource } from '../api/resource'
import { Button, ConfirmDialog, Async, EmptyState, toast } from '../components'
import { reportHref } from './list-query'
import { usePermissions } from './project-lookups'
import { StatusBadge } from './ReportRows'
import { reportsApi } from './reports-api'

/** What a merge into `target` ("this report", "#5") does, in the words of its confirmation. */
export const mergeEffect = (target: string) =>
  `Its occurrences, comments, labels, votes, files and links move to ${target}, and its number then leads to ${target}. Splitting the occurrences out again undoes it.`

/**
 * Reports whose titles share significant words with this one (possible duplicates), each with a
 * merge into this report on the merge route: its occurrences and everything else fold in here.
 */
export function SimilarReports({ slug, number, title, onMerged }: { slug: string; number: number; title: string; onMerged: () => void }) {
  const similar = useMemo(() => createResource(async (signal) => (await reportsApi.similar(slug, title, signal)).filter((r) => r.report_number !== number)), [slug, number, title])
  useEffect(() => void similar.reload(), [similar])
  const reason = usePermissions(slug).reason('bugs.edit')
  const [merging, setMerging] = useState<{ report_number: number; title: string } | null>(null)
  const merge = async () => {
    const done = await reportsApi.merge(slug, number, { numbers: [merging!.report_number] })
    toast(`#${merging!.report_number} merged into #${number}: ${done.occurrence_count} occurrences now`)
    onMerged()
    void similar.reload()
  }
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
                <StatusBadge status={r.status} />{' '}
                <Button size="sm" variant="ghost" reason={reason} aria-label={`Merge here: #${r.report_number} into this report`} onClick={() => setMerging(r)}>
                  Merge here
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Async>
      <ConfirmDialog
        open={merging !== null}
        title={`Merge #${merging?.report_number ?? ''} into #${number}?`}
        confirmLabel="Merge"
        danger={false}
        message={
          <p>
            “{merging?.title}” becomes part of this report. {mergeEffect('this report')}
          </p>
        }
        onConfirm={merge}
        onClose={() => setMerging(null)}
      />
    </section>
  )
}
