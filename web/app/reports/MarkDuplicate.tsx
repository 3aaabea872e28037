import { useState } from 'preact/hooks'
import { Button, ConfirmDialog, Section, TextField, toast } from '../components'
import { navigate } from '../router'
import { reportHref } from './list-query'
import { usePermissions } from './project-lookups'
import { reportsApi } from './reports-api'
import { mergeEffect } from './SimilarReports'

/** "#12", "12" → 12; anything else → null. */
export const reportNumberOf = (text: string): number | null => (/^\s*#?([1-9]\d{0,14})\s*$/.exec(text) ? Number(/\d+/.exec(text)![0]) : null)

/**
 * "Mark as duplicate of #N": folds this report into report N on the merge route (N keeps its number
 * and gains this one's occurrences), then goes to N.
 */
export function MarkDuplicate({ slug, number }: { slug: string; number: number }) {
  const reason = usePermissions(slug).reason('bugs.edit')
  const [text, setText] = useState('')
  const [target, setTarget] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const ask = (e: Event) => {
    e.preventDefault()
    const n = reportNumberOf(text)
    if (n === null) return setError('Enter the number of the report this one duplicates, e.g. 12')
    if (n === number) return setError('A report cannot be a duplicate of itself')
    setError(null)
    setTarget(n)
  }
  const merge = async () => {
    await reportsApi.merge(slug, target!, { numbers: [number] })
    toast(`#${number} marked as a duplicate of #${target} and merged into it`)
    navigate(reportHref(slug, target!))
  }
  return (
    <Section title="Duplicate">
      <form class="inline-form" onSubmit={ask}>
        <TextField label="Duplicate of report #" value={text} onValue={setText} disabled={Boolean(reason)} error={error ?? undefined} inputMode="numeric" />
        <Button type="submit" reason={reason} disabled={!text.trim()}>
          Mark as duplicate
        </Button>
      </form>
      <ConfirmDialog
        open={target !== null}
        title={`Mark #${number} as a duplicate of #${target ?? ''}?`}
        confirmLabel="Merge into the original"
        danger={false}
        message={<p>This report is merged into #{target}. {mergeEffect(`#${target}`)}</p>}
        onConfirm={merge}
        onClose={() => setTarget(null)}
      />
    </Section>
  )
}
