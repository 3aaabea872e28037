import { useState } from 'preact/hooks'
import type { Member } from '../api/types'
import { Button, ConfirmDialog, Select, toast, useAction } from '../components'
import { CATEGORY_OPTIONS, PRIORITY_OPTIONS, STATUS_OPTIONS } from './report-enums'
import type { BulkUpdateBody, Label, ListFilter } from './report-types'
import { showPlans } from '../session'
import { usePermissions } from './project-lookups'
import { reportsApi } from './reports-api'

const unchanged = (options: readonly { value: string; label: string }[]) => [{ value: '', label: 'No change' }, ...options]
const reportsWord = (n: number) => `${n.toLocaleString()} report${n === 1 ? '' : 's'}`

/**
 * What the bulk actions take: the reports checked on this page (by number, at most 100), or every
 * report the list's filter selects on any page (the server takes the filter; at most 10,000).
 */
export type BulkSelection = { numbers: number[] } | { filter: ListFilter; count: number }

/** The reports a merge may keep, as the page shows them (number, title and events). */
export interface MergeCandidate {
  report_number: number
  title: string
  occurrence_count: number
}

/** The report a merge keeps unless the user picks another: the one with the most events, else the oldest (lowest number). */
export const defaultSurvivor = (candidates: MergeCandidate[]): MergeCandidate | undefined =>
  candidates.reduce<MergeCandidate | undefined>(
    (best, c) => (!best || c.occurrence_count > best.occurrence_count || (c.occurrence_count === best.occurrence_count && c.report_number < best.report_number) ? c : best),
    undefined,
  )

/**
 * Bulk actions over the selection: set fields and add or remove a label in one request, merge the reports into one of them, or
 * delete them after a confirmation.
 */
export function BulkBar({
  slug,
  selection,
  candidates,
  members,
  labels,
  onDone,
  onClear,
}: {
  slug: string
  selection: BulkSelection
  /** Reports the merge can keep: the selected ones on this page, or the page's rows for a filter. */
  candidates: MergeCandidate[]
  members: Member[] | undefined
  labels: Label[] | undefined
  onDone: () => void
  onClear: () => void
}) {
  const { can, reason: deniedReason } = usePermissions(slug)
  const [status, setStatus] = useState('')
  const [priority, setPriority] = useState('')
  const [category, setCategory] = useState('')
  const [assignee, setAssignee] = useState('')
  const [visibility, setVisibility] = useState('')
  const [addLabel, setAddLabel] = useState('')
  const [removeLabel, setRemoveLabel] = useState('')
  const [confirming, setConfirming] = useState<'delete' | 'merge' | null>(null)
  const [keep, setKeep] = useState('')
  const target = 'filter' in selection ? { filter: selection.filter } : { bug_numbers: selection.numbers }
  const n = 'filter' in selection ? selection.count : selection.numbers.length
  const body: BulkUpdateBody = { ...target }
  if (status) body.status = status as BulkUpdateBody['status']
  if (priority) body.priority = priority as BulkUpdateBody['priority']
  if (category) body.category = category as BulkUpdateBody['category']
  if (assignee) body.assigned_to = assignee === 'unassigned' ? '' : assignee
  if (visibility) body.is_private = visibility === 'private'
  if (addLabel) body.add_label_ids = [addLabel]
  if (removeLabel) body.remove_label_ids = [removeLabel]
  const changes = Object.keys(body).length - 1
  const labelOptions = (labels ?? []).map((l) => ({ value: l.id, label: l.name }))
  // The reports a filter matched may no longer match it after the change: the selection ends with the
  // action rather than standing for a different set (or none: "Delete all 0 reports"). Checked rows stay.
  const afterAction = () => {
    if ('filter' in selection) onClear()
    onDone()
  }
  const { busy, run: apply } = useAction(
    async () => {
      const { updated } = await reportsApi.bulkUpdate(slug, body)
      toast(`${reportsWord(updated)} updated`)
      for (const reset of [setStatus, setPriority, setCategory, setAssignee, setVisibility, setAddLabel, setRemoveLabel]) reset('')
      afterAction()
    },
    { toastErrors: true },
  )
  // Publish / Unpublish act at once: an explicit publication shows (or hides) the reports whatever the tracker's publish mode.
  const { busy: publishing, run: publish } = useAction(
    async (published: boolean) => {
      const { updated } = await reportsApi.bulkUpdate(slug, { ...target, published })
      toast(`${reportsWord(updated)} ${published ? 'published' : 'unpublished'}`)
      afterAction()
    },
    { toastErrors: true },
  )
  const survivor = Number(keep || defaultSurvivor(candidates)?.report_number)
  const mergeBody = 'filter' in selection ? { filter: selection.filter } : { numbers: selection.numbers.filter((x) => x !== survivor) }
  return (
    <section class="bulk-bar card" aria-label="Bulk actions">
      <p class="bulk-count" role="status">
        {'filter' in selection ? `All ${reportsWord(n)} matching` : `${n} selected`}
      </p>
      {can('bugs.edit') ? (
        <>
          <Select label="Set status" value={status} onValue={setStatus} options={unchanged(STATUS_OPTIONS)} />
          <Select label="Set priority" value={priority} onValue={setPriority} options={unchanged(PRIORITY_OPTIONS)} />
          <Select label="Set category" value={category} onValue={setCategory} options={unchanged(CATEGORY_OPTIONS)} />
          <Select
            label="Set assignee"
            value={assignee}
            onValue={setAssignee}
            disabled={!can('bugs.assign')}
            title={deniedReason('bugs.assign')}
            options={unchanged([{ value: 'unassigned', label: 'Unassigned' }, ...(members ?? []).map((m) => ({ value: m.user_id, label: m.name || m.email }))])}
          />
          <Select
            label="Set visibility"
            value={visibility}
            onValue={setVisibility}
            options={unchanged([
              { value: 'private', label: 'Private (never on public pages)' },
              { value: 'public', label: 'Public' },
            ])}
          />
          <Select label="Add label" value={addLabel} onValue={setAddLabel} disabled={!can('labels.manage')} title={deniedReason('labels.manage')} options={unchanged(labelOptions)} />
          <Select label="Remove label" value={removeLabel} onValue={setRemoveLabel} disabled={!can('labels.manage')} title={deniedReason('labels.manage')} options={unchanged(labelOptions)} />
          <Button variant="primary" busy={busy} disabled={changes === 0 || n === 0} onClick={apply}>
            Apply to {'filter' in selection ? `all ${reportsWord(n)}` : `${n} selected`}
          </Button>
          <Button disabled={n < 2 || candidates.length === 0} title={n < 2 ? 'Select at least two reports to merge' : undefined} onClick={() => setConfirming('merge')}>
            Merge…
          </Button>
          <Button busy={publishing} onClick={() => publish(true)} aria-label={'filter' in selection ? `Publish all ${reportsWord(n)}` : `Publish ${n} selected`}>
            Publish
          </Button>
          <Button busy={publishing} onClick={() => publish(false)} aria-label={'filter' in selection ? `Unpublish all ${reportsWord(n)}` : `Unpublish ${n} selected`}>
            Unpublish
          </Button>
        </>
      ) : (
        <p class="muted">{deniedReason('bugs.edit')}</p>
      )}
      <Button variant="danger" reason={deniedReason('bugs.delete')} disabled={n === 0} onClick={() => setConfirming('delete')}>
        {'filter' in selection ? `Delete all ${reportsWord(n)}` : 'Delete selected'}
      </Button>
      <Button variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
      <ConfirmDialog
        open={confirming === 'delete'}
        title={`Delete ${reportsWord(n)}?`}
        message={`Deleted reports leave every list and the public pages.${showPlans.value ? " They still count toward the plan's report quota." : ''}`}
        confirmLabel="Delete"
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          const { deleted } = await reportsApi.bulkDelete(slug, target)
          toast(`${reportsWord(deleted)} deleted`)
          onClear()
          onDone()
        }}
      />
      <ConfirmDialog
        open={confirming === 'merge'}
        title={`Merge ${reportsWord(n)} into one?`}
        danger={false}
        confirmLabel="Merge"
        message={
          <>
            <p>
              The other reports become occurrences of the one you keep: their events, players, comments, labels, votes and files move to it, and their numbers lead to it from
              now on. Splitting occurrences out again undoes it.
            </p>
            <Select
              label="Keep"
              value={String(survivor)}
              onValue={setKeep}
              options={candidates.map((c) => ({ value: String(c.report_number), label: `#${c.report_number} ${c.title}` }))}
            />
          </>
        }
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          const merged = await reportsApi.merge(slug, survivor, mergeBody)
          toast(`${reportsWord(merged.merged.length)} merged into #${merged.report_number}`)
          onClear()
          onDone()
        }}
      />
    </section>
  )
}
