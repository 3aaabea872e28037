import { useState } from 'preact/hooks'
import { Button, Select, TextField, toast, useAction } from '../components'
import type { Label, ReportLabel } from './report-types'
import { usePermissions } from './project-lookups'
import { reportsApi } from './reports-api'
import { LabelChips } from './ReportRows'

/** The report's labels: remove, add an existing one, or create a new one and add it. */
export function ReportLabels({
  slug,
  number,
  current,
  all,
  onChanged,
}: {
  slug: string
  number: number
  current: ReportLabel[]
  all: Label[] | undefined
  onChanged: (created?: boolean) => void
}) {
  const [pick, setPick] = useState('')
  const [name, setName] = useState('')
  const [color, setColor] = useState('#2E5BFF')
  const reason = usePermissions(slug).reason('labels.manage')
  const { busy, run } = useAction(
    async (work: () => Promise<unknown>, done: string, created?: boolean) => {
      await work()
      toast(done)
      onChanged(created)
    },
    { toastErrors: true },
  )
  const available = (all ?? []).filter((l) => !current.some((c) => c.id === l.id))
  return (
    <section class="card report-labels">
      <h2>Labels</h2>
      {current.length === 0 ? (
        <p class="muted">No labels.</p>
      ) : (
        <ul class="label-list">
          {current.map((l) => (
            <li key={l.id}>
              <LabelChips labels={[l]} />
              <Button size="sm" variant="ghost" aria-label={`Remove label ${l.name}`} reason={reason} disabled={busy} onClick={() => run(() => reportsApi.removeLabel(slug, number, l.id), `Label “${l.name}” removed`)}>
                ×
              </Button>
            </li>
          ))}
        </ul>
      )}
      {reason ? (
        <p class="muted small">{reason}</p>
      ) : (
        <>
          <form
            class="inline-form"
            onSubmit={async (e) => {
              e.preventDefault()
              if (pick && (await run(() => reportsApi.addLabel(slug, number, pick), 'Label added'))) setPick('')
            }}
          >
            <Select
              label="Add label"
              value={pick}
              onValue={setPick}
              options={[{ value: '', label: all === undefined ? 'Loading…' : available.length ? 'Choose a label…' : 'No other labels' }, ...available.map((l) => ({ value: l.id, label: l.name }))]}
            />
            <Button type="submit" disabled={!pick || busy}>
              Add
            </Button>
          </form>
          <details class="new-label">
            <summary>Create a label</summary>
            <form
              class="inline-form"
              onSubmit={async (e) => {
                e.preventDefault()
                const ok = await run(
                  async () => {
                    const label = await reportsApi.createLabel(slug, { name: name.trim(), color })
                    await reportsApi.addLabel(slug, number, label.id)
                  },
                  `Label “${name.trim()}” created and added`,
                  true,
                )
                if (ok) setName('')
              }}
            >
              <TextField label="Label name" value={name} onValue={setName} maxLength={50} required />
              <TextField label="Color" type="color" value={color} onValue={setColor} />
              <Button type="submit" disabled={!name.trim() || busy}>
                Create label
              </Button>
            </form>
          </details>
        </>
      )}
    </section>
  )
}
