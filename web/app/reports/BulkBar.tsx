import { useState } from 'preact/hooks'
import type { Member } from '../api/types'
import { Button, ConfirmDialog, Select, toast, useAction } from '../components'
import { CATEGORY_OPTIONS, PRIORITY_OPTIONS, STATUS_OPTIONS } from './report-enums'
import type { BulkUpdateBody } from './report-types'
import { showPlans } from '../session'
import { usePermissions } from './project-lookups'
import { reportsApi } from './reports-api'

const unchanged = (options: readonly { value: string; label: string }[]) => [{ value: '', label: 'No change' }, ...options]

/** Bulk actions over the selected reports: set fields in one request, or delete them after a confirmation. */
export function BulkBar({ slug, selected, members, onDone, onClear }: { slug: string; selected: number[]; members: Member[] | undefined; onDone: () => void; onClear: () => void }) {
  const { can, reason: deniedReason } = usePermissions(slug)
  const [status, setStatus] = useState('')
  const [priority, setPriority] = useState('')
  const [category, setCategory] = useState('')
  const [assignee, setAssignee] = useState('')
  const [visibility, setVisibility] = useState('')
  const [confirming, setConfirming] = useState(false)
  const body: BulkUpdateBody = { bug_numbers: selected }
  if (status) body.status = status as BulkUpdateBody['status']
  if (priority) body.priority = priority as BulkUpdateBody['priority']
  if (category) body.category = category as BulkUpdateBody['category']
  if (assignee) body.assigned_to = assignee === 'unassigned' ? '' : assignee
  if (visibility) body.is_private = visibility === 'private'
  const changes = Object.keys(body).length - 1
  const { busy, run: apply } = useAction(
    async () => {
      const { updated } = await reportsApi.bulkUpdate(slug, body)
      toast(`${updated} report${updated === 1 ? '' : 's'} updated`)
      for (const reset of [setStatus, setPriority, setCategory, setAssignee, setVisibility]) reset('')
      onDone()
    },
    { toastErrors: true },
  )
  // Publish / Unpublish act at once: an explicit publication shows (or hides) the reports whatever the tracker's publish mode.
  const { busy: publishing, run: publish } = useAction(
    async (published: boolean) => {
      const { updated } = await reportsApi.bulkUpdate(slug, { bug_numbers: selected, published })
      toast(`${updated} report${updated === 1 ? '' : 's'} ${published ? 'published' : 'unpublished'}`)
      onDone()
    },
    { toastErrors: true },
  )
  const n = selected.length
  return (
    <section class="bulk-bar card" aria-label="Bulk actions">
      <p class="bulk-count" role="status">
        {n} selected
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
          <Button variant="primary" busy={busy} disabled={changes === 0} onClick={apply}>
            Apply to {n} selected
          </Button>
          <Button busy={publishing} onClick={() => publish(true)} aria-label={`Publish ${n} selected`}>
            Publish
          </Button>
          <Button busy={publishing} onClick={() => publish(false)} aria-label={`Unpublish ${n} selected`}>
            Unpublish
          </Button>
        </>
      ) : (
        <p class="muted">{deniedReason('bugs.edit')}</p>
      )}
      <Button variant="danger" reason={deniedReason('bugs.delete')} onClick={() => setConfirming(true)}>
        Delete selected
      </Button>
      <Button variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${n} report${n === 1 ? '' : 's'}?`}
        message={`Deleted reports leave every list and the public pages.${showPlans.value ? " They still count toward the plan's report quota." : ''}`}
        confirmLabel="Delete"
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          const { deleted } = await reportsApi.bulkDelete(slug, selected)
          toast(`${deleted} report${deleted === 1 ? '' : 's'} deleted`)
          onClear()
          onDone()
        }}
      />
    </section>
  )
}
