import { useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Button, FormError, Page, Select, TextArea, TextField, toast, useAction } from '../components'
import { CATEGORY_OPTIONS, PRIORITY_OPTIONS } from '../reports/report-enums'
import { navigate, type RouteProps } from '../router'
import { deniedReason } from '../session'
import { CustomFieldInput } from './CustomFieldInput'
import type { CustomField, ReportTemplate } from './types'

/** `/projects/:slug/reports/new`: file a report by hand, optionally from a template, with the project's custom fields. */
export function NewReport({ params }: RouteProps) {
  const slug = params.slug!
  const templates = useApi<ReportTemplate[]>(projectPath(slug, '/templates'))
  const fields = useApi<CustomField[]>(projectPath(slug, '/custom-fields'))
  const [template, setTemplate] = useState('')
  const [title, setTitle] = useState('')
  const [description, setDescription] = useState('')
  const [priority, setPriority] = useState('medium')
  const [category, setCategory] = useState('other')
  const [steps, setSteps] = useState('')
  const [custom, setCustom] = useState<Record<string, unknown>>({})
  const reason = deniedReason('bugs.create')

  const apply = (id: string) => {
    setTemplate(id)
    const t = templates.data.value?.find((x) => x.id === id)
    if (!t) return
    if (t.priority) setPriority(t.priority)
    if (t.category) setCategory(t.category)
    if (t.body_template) setDescription(t.body_template)
  }
  const { busy, error, onSubmit } = useAction(async () => {
    const custom_fields = Object.fromEntries(Object.entries(custom).filter(([, v]) => v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)))
    const made = await api.post<{ report_number: number }>(projectPath(slug, '/bugs'), { title: title.trim(), description, priority, category, steps_to_reproduce: steps || undefined, custom_fields })
    toast(`Report #${made.report_number} filed`)
    navigate(`/projects/${encodeURIComponent(slug)}/reports/${made.report_number}`)
  })
  const templateOptions = [{ value: '', label: 'No template' }, ...(templates.data.value ?? []).map((t) => ({ value: t.id, label: t.name }))]
  return (
    <Page title="New report">
      <form class="card stack" onSubmit={onSubmit}>
        {(templates.data.value?.length ?? 0) > 0 && <Select label="Template" value={template} onValue={apply} options={templateOptions} />}
        <TextField label="Title" required maxLength={300} value={title} onValue={setTitle} />
        <TextArea label="Description" required rows={8} maxLength={50000} value={description} onValue={setDescription} />
        <TextArea label="Steps to reproduce" rows={4} value={steps} onValue={setSteps} />
        <div class="row">
          <Select label="Priority" value={priority} onValue={setPriority} options={[...PRIORITY_OPTIONS]} />
          <Select label="Category" value={category} onValue={setCategory} options={[...CATEGORY_OPTIONS]} />
        </div>
        {(fields.data.value ?? []).map((f) => (
          <CustomFieldInput key={f.id} field={f} value={custom[f.id] ?? null} onValue={(v) => setCustom((c) => ({ ...c, [f.id]: v }))} />
        ))}
        <FormError error={error} />
        <div class="row" style="justify-content:flex-end">
          <Button type="submit" variant="primary" busy={busy} reason={reason} disabled={!title.trim() || !description.trim()}>File report</Button>
        </div>
      </form>
    </Page>
  )
}
