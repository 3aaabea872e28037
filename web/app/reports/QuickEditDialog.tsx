import { useEffect, useState } from 'preact/hooks'
import type { Member } from '../api/types'
import { Button, Dialog, Select, toast, useAction } from '../components'
import { STATUS_OPTIONS } from './report-enums'
import type { Label } from './report-types'
import { reportsApi } from './reports-api'

export type QuickEdit = 'status' | 'assign' | 'label'

const TITLES: Record<QuickEdit, string> = { status: 'Change status', assign: 'Assign', label: 'Add a label' }

/** The dialog behind the e, a and l shortcuts: one choice applied to the current report or the selected ones. */
export function QuickEditDialog({
  slug,
  mode,
  targets,
  members,
  labels,
  onClose,
  onDone,
}: {
  slug: string
  mode: QuickEdit | null
  targets: number[]
  members: Member[] | undefined
  labels: Label[] | undefined
  onClose: () => void
  onDone: () => void
}) {
  const [value, setValue] = useState('')
  const { busy, error, setError, run } = useAction(async () => {
    if (mode === 'label') for (const n of targets) await reportsApi.addLabel(slug, n, value)
    else await reportsApi.bulkUpdate(slug, mode === 'status' ? { bug_numbers: targets, status: value as never } : { bug_numbers: targets, assigned_to: value === 'unassigned' ? '' : value })
    toast(`${targets.length} report${targets.length === 1 ? '' : 's'} updated`)
    onDone()
    onClose()
  })
  useEffect(() => {
    setValue('')
    setError(null)
  }, [mode])
  const options =
    mode === 'status'
      ? [...STATUS_OPTIONS]
      : mode === 'assign'
        ? [{ value: 'unassigned', label: 'Unassigned' }, ...(members ?? []).map((m) => ({ value: m.user_id, label: m.name || m.email }))]
        : (labels ?? []).map((l) => ({ value: l.id, label: l.name }))
  const apply = () => {
    if (mode && value) void run()
  }
  const which = targets.length === 1 ? `report #${targets[0]}` : `${targets.length} selected reports`
  return (
    <Dialog
      open={mode !== null}
      title={mode ? `${TITLES[mode]}: ${which}` : ''}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} disabled={!value} onClick={apply}>
            Apply
          </Button>
        </>
      }
    >
      {mode === 'label' && options.length === 0 ? (
        <p>This project has no labels yet: create one on a report page.</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void apply()
          }}
        >
          <Select
            label={mode === 'status' ? 'New status' : mode === 'assign' ? 'Assign to' : 'Label to add'}
            value={value}
            onValue={setValue}
            options={[{ value: '', label: 'Choose…' }, ...options]}
            autofocus
          />
        </form>
      )}
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  )
}
