import { useEffect, useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Badge, Button, Section, Select, TextArea, TextField, formatDate, toast, useAction } from '../components'
import { deniedReason } from '../session'
import { CustomFieldInput } from './CustomFieldInput'
import { DependenciesPanel } from './DependenciesPanel'
import type { CustomField, CustomFieldValue, Satisfaction } from './types'

type Sla = { state: string; response: { state: string; due_at: string } | null; resolve: { state: string; due_at: string } | null } | null
const SLA_TONE: Record<string, 'success' | 'warning' | 'danger'> = { ok: 'success', at_risk: 'warning', breached: 'danger' }

/** The workflow side of a report page: SLA, due date, custom fields, dependencies and satisfaction. */
export function WorkflowPanel({ slug, number, dueDate, sla, onChange }: { slug: string; number: number; dueDate: string | null; sla: Sla; onChange: () => void }) {
  return (
    <>
      {sla && <SlaBadge sla={sla} />}
      <DueDate slug={slug} number={number} dueDate={dueDate} onChange={onChange} />
      <CustomFields slug={slug} number={number} />
      <DependenciesPanel slug={slug} number={number} onChange={onChange} />
      <SatisfactionPanel slug={slug} number={number} />
    </>
  )
}

function SlaBadge({ sla }: { sla: NonNullable<Sla> }) {
  return (
    <Section title="SLA">
      <p>
        <Badge tone={SLA_TONE[sla.state] ?? 'neutral'}>{sla.state.replace('_', ' ')}</Badge>
      </p>
      <ul class="small">
        {sla.response && <li>First response: {sla.response.state.replace('_', ' ')}, due {formatDate(sla.response.due_at)}</li>}
        {sla.resolve && <li>Resolution: {sla.resolve.state.replace('_', ' ')}, due {formatDate(sla.resolve.due_at)}</li>}
      </ul>
    </Section>
  )
}

function DueDate({ slug, number, dueDate, onChange }: { slug: string; number: number; dueDate: string | null; onChange: () => void }) {
  const [value, setValue] = useState(dueDate ? dueDate.slice(0, 10) : '')
  useEffect(() => setValue(dueDate ? dueDate.slice(0, 10) : ''), [dueDate])
  const reason = deniedReason('bugs.edit')
  const save = async (due: string | null) => {
    try {
      await api.patch(projectPath(slug, `/bugs/${number}/due-date`), { due_date: due })
      toast(due ? 'Due date set' : 'Due date cleared')
      onChange()
    } catch (err) {
      toast(messageOf(err), 'error')
    }
  }
  const overdue = dueDate !== null && new Date(dueDate).getTime() < Date.now()
  return (
    <Section title="Due date">
      <form class="row" onSubmit={(e) => (e.preventDefault(), void save(value || null))}>
        <TextField label="Due date" type="date" value={value} onValue={setValue} disabled={Boolean(reason)} />
        <Button type="submit" reason={reason} disabled={!value}>Set due date</Button>
        {dueDate && <Button reason={reason} onClick={() => save(null)}>Clear</Button>}
      </form>
      {overdue && <p><Badge tone="danger">overdue</Badge></p>}
    </Section>
  )
}

function CustomFields({ slug, number }: { slug: string; number: number }) {
  // Values carry the field's name and type; the definitions add its options and whether it is required.
  const defs = useApi<CustomField[]>(projectPath(slug, '/custom-fields'))
  const values = useApi<CustomFieldValue[]>(projectPath(slug, `/bugs/${number}/custom-fields`))
  const reason = deniedReason('bugs.edit')
  const set = async (v: CustomFieldValue, value: unknown) => {
    try {
      await api.post(projectPath(slug, `/bugs/${number}/custom-fields`), { field_id: v.field_id, value })
      await values.reload()
    } catch (err) {
      toast(messageOf(err), 'error')
    }
  }
  if (!values.data.value?.length) return null
  const byId = new Map((defs.data.value ?? []).map((d) => [d.id, d]))
  return (
    <Section title="Custom fields">
      <div class="stack">
        {values.data.value.map((v) => (
          <CustomFieldInput key={v.field_id} field={byId.get(v.field_id) ?? { name: v.name, field_type: v.field_type, options: null, is_required: false }} value={v.value} onValue={(x) => void set(v, x)} disabled={Boolean(reason)} />
        ))}
      </div>
    </Section>
  )
}

function SatisfactionPanel({ slug, number }: { slug: string; number: number }) {
  const data = useApi<Satisfaction>(projectPath(slug, `/bugs/${number}/satisfaction`))
  const [rating, setRating] = useState('5')
  const [comment, setComment] = useState('')
  const rate = useAction(
    async () => {
      await api.post(projectPath(slug, `/bugs/${number}/satisfaction`), { rating: Number(rating), comment })
      toast('Rating saved')
      setComment('')
      await data.reload()
    },
    { toastErrors: true },
  )
  return (
    <Section title="Satisfaction">
      <Async resource={data}>
        {(s) => <p>{s.count === 0 ? 'No ratings yet.' : `Average ${s.average} of 5 from ${s.count} rating${s.count === 1 ? '' : 's'}.`}</p>}
      </Async>
      <form class="stack" onSubmit={rate.onSubmit}>
        <Select label="Your rating" value={rating} onValue={setRating} options={[5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: `${n} of 5` }))} />
        <TextArea label="Rating comment" rows={2} maxLength={5000} value={comment} onValue={setComment} />
        <Button type="submit" busy={rate.busy}>Rate</Button>
      </form>
    </Section>
  )
}
