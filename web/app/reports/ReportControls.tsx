import { useEffect, useState } from 'preact/hooks'
import { messageOf } from '../api/client'
import type { Member } from '../api/types'
import { Checkbox, Select, toast } from '../components'
import { CATEGORY_OPTIONS, PRIORITY_OPTIONS, STATUS_OPTIONS } from './report-enums'
import type { Report, UpdateReportBody } from './report-types'
import { usePermissions } from './project-lookups'
import { reportsApi } from './reports-api'

/** Status, priority, category, assignee and private: each saves on change; what the member may not change is disabled with the reason. */
export function ReportControls({ slug, bug, members, onSaved }: { slug: string; bug: Report; members: Member[] | undefined; onSaved: () => void }) {
  const [saving, setSaving] = useState<string | null>(null)
  // The value just chosen is shown at once (a controlled control would snap back until the report is
  // read again); the fresh report replaces it, and a failed save drops it.
  const [pending, setPending] = useState<UpdateReportBody>({})
  useEffect(() => setPending({}), [bug])
  const shown = { ...bug, ...pending }
  const save = async (field: string, body: UpdateReportBody, done: string) => {
    setSaving(field)
    setPending((p) => ({ ...p, ...body }))
    try {
      await reportsApi.update(slug, bug.report_number, body)
      toast(done)
    } catch (err) {
      setPending({})
      toast(messageOf(err), 'error')
    } finally {
      setSaving(null)
      onSaved()
    }
  }
  const { reason } = usePermissions(slug)
  const editReason = reason('bugs.edit')
  const assignReason = reason('bugs.assign')
  const assignees = [{ value: '', label: 'Unassigned' }, ...(members ?? []).map((m) => ({ value: m.user_id, label: m.name || m.email }))]
  if (shown.assigned_to && !assignees.some((a) => a.value === shown.assigned_to)) assignees.push({ value: shown.assigned_to, label: members ? 'Former member' : 'Loading…' })
  return (
    <section class="card report-controls">
      <h2>Triage</h2>
      <Select
        label="Status"
        value={shown.status}
        disabled={Boolean(editReason) || saving === 'status'}
        title={editReason}
        hint={editReason}
        onValue={(v) => save('status', { status: v as Report['status'] }, 'Status changed')}
        options={[...STATUS_OPTIONS]}
      />
      <Select
        label="Priority"
        value={shown.priority}
        disabled={Boolean(editReason) || saving === 'priority'}
        title={editReason}
        onValue={(v) => save('priority', { priority: v as Report['priority'] }, 'Priority changed')}
        options={[...PRIORITY_OPTIONS]}
      />
      <Select
        label="Category"
        value={shown.category}
        disabled={Boolean(editReason) || saving === 'category'}
        title={editReason}
        onValue={(v) => save('category', { category: v as Report['category'] }, 'Category changed')}
        options={[...CATEGORY_OPTIONS]}
      />
      <Select
        label="Assignee"
        value={shown.assigned_to ?? ''}
        disabled={Boolean(editReason ?? assignReason) || saving === 'assignee'}
        title={editReason ?? assignReason}
        hint={editReason ? undefined : assignReason}
        onValue={(v) => save('assignee', { assigned_to: v }, v ? 'Assigned' : 'Unassigned')}
        options={assignees}
      />
      <Checkbox
        label="Private"
        hint="Private reports never appear on the public tracker or roadmap."
        checked={shown.is_private}
        disabled={Boolean(editReason) || saving === 'private'}
        title={editReason}
        onChecked={(v) => save('private', { is_private: v }, v ? 'Report made private' : 'Report made public')}
      />
    </section>
  )
}
