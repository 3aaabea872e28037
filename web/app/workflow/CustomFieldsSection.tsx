import { useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Badge, Button, Checkbox, DeleteConfirm, EmptyState, FormDialog, FormError, Section, Select, Table, TextField, toast, useAction } from '../components'
import { deniedReason } from '../session'
import { type CreateCustomFieldBody, type CustomField, FIELD_TYPES } from './types'

/** Custom field definitions: list, add (options for the select types), delete (with their values). */
export function CustomFieldsSection({ slug }: { slug: string }) {
  const list = useApi<CustomField[]>(projectPath(slug, '/custom-fields'))
  const [adding, setAdding] = useState(false)
  const [deleting, setDeleting] = useState<CustomField | null>(null)
  const reason = deniedReason('project.settings')
  return (
    <Section
      title="Custom fields"
      description="Extra fields on every report. Required fields must be filled when your team files a report (reports from the game are not held to them)."
      actions={<Button variant="primary" reason={reason} onClick={() => setAdding(true)}>Add field</Button>}
    >
      <Async resource={list} empty={<EmptyState title="No custom fields yet">Add fields such as build number, affected area or a repro video link.</EmptyState>}>
        {(rows) => (
          <Table<CustomField>
            caption="Custom fields"
            rows={rows}
            rowKey={(f) => f.id}
            columns={[
              { key: 'name', header: 'Field', render: (f) => (<strong>{f.name}</strong>) },
              { key: 'type', header: 'Type', render: (f) => f.field_type },
              { key: 'options', header: 'Options', render: (f) => (f.options?.length ? f.options.join(', ') : '–') },
              { key: 'required', header: 'Required', render: (f) => (f.is_required ? <Badge tone="warning">required</Badge> : 'No') },
              { key: 'actions', header: <span class="sr-only">Actions</span>, render: (f) => (<Button size="sm" variant="danger" reason={reason} onClick={() => setDeleting(f)} aria-label={`Delete field ${f.name}`}>Delete</Button>) },
            ]}
          />
        )}
      </Async>
      <FormDialog open={adding} title="Add custom field" onClose={() => setAdding(false)} onDone={list.reload}>
        {(done) => <FieldForm slug={slug} onDone={done} />}
      </FormDialog>
      <DeleteConfirm
        item={deleting}
        collection={projectPath(slug, '/custom-fields')}
        title={`Delete the field ${deleting?.name ?? ''}?`}
        message={<>Its value is removed from every report.</>}
        confirmLabel="Delete field"
        deleted="Field deleted"
        onClose={() => setDeleting(null)}
        onDeleted={list.reload}
      />
    </Section>
  )
}

function FieldForm({ slug, onDone }: { slug: string; onDone: () => void }) {
  const [name, setName] = useState('')
  const [type, setType] = useState<string>('text')
  const [options, setOptions] = useState('')
  const [required, setRequired] = useState(false)
  const selectType = type === 'select' || type === 'multiselect'
  const { busy, error, onSubmit } = useAction(async () => {
    const body: CreateCustomFieldBody = { name: name.trim(), field_type: type as CreateCustomFieldBody['field_type'], is_required: required }
    if (selectType) body.options = options.split(',').map((o) => o.trim()).filter(Boolean)
    await api.post(projectPath(slug, '/custom-fields'), body)
    toast('Field added')
    onDone()
  })
  return (
    <form class="stack" onSubmit={onSubmit}>
      <TextField label="Field name" required maxLength={100} value={name} onValue={setName} />
      <Select label="Field type" value={type} onValue={setType} options={FIELD_TYPES.map((t) => ({ value: t, label: t }))} />
      {selectType && <TextField label="Options" required value={options} onValue={setOptions} hint="Separated by commas, e.g. beta, release candidate, release" />}
      <Checkbox label="Required on reports the team files" checked={required} onChecked={setRequired} />
      <FormError error={error} />
      <div class="row" style="justify-content:flex-end">
        <Button type="submit" variant="primary" busy={busy} disabled={!name.trim()}>Add field</Button>
      </div>
    </form>
  )
}
