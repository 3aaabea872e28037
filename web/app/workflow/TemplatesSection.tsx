import { useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Button, DeleteConfirm, EmptyState, FormDialog, FormError, Section, Select, Table, TextArea, TextField, toast, useAction } from '../components'
import { CATEGORY_OPTIONS, PRIORITY_OPTIONS } from '../reports/report-enums'
import { deniedReason } from '../session'
import type { ReportTemplate, TemplateBody } from './types'

const NONE = [{ value: '', label: 'None' }]

/** Report templates: list, create, edit and delete (the new-report form offers them). */
export function TemplatesSection({ slug }: { slug: string }) {
  const list = useApi<ReportTemplate[]>(projectPath(slug, '/templates'))
  const [editing, setEditing] = useState<ReportTemplate | 'new' | null>(null)
  const [deleting, setDeleting] = useState<ReportTemplate | null>(null)
  const reason = deniedReason('project.settings')
  return (
    <Section
      title="Report templates"
      description="Starting points for reports your team files by hand: a default priority and category and a body to fill in."
      actions={
        <Button variant="primary" reason={reason} onClick={() => setEditing('new')}>
          Add template
        </Button>
      }
    >
      <Async resource={list} empty={<EmptyState title="No templates yet">Add one for the kinds of report your team files most.</EmptyState>}>
        {(rows) => (
          <Table<ReportTemplate>
            caption="Report templates"
            rows={rows}
            rowKey={(t) => t.id}
            columns={[
              { key: 'name', header: 'Template', render: (t) => (<div><strong>{t.name}</strong><div class="small muted">{t.description}</div></div>) },
              { key: 'priority', header: 'Priority', render: (t) => t.priority ?? '–' },
              { key: 'category', header: 'Category', render: (t) => t.category ?? '–' },
              {
                key: 'actions',
                header: <span class="sr-only">Actions</span>,
                render: (t) => (
                  <div class="row" style="gap:0.35rem">
                    <Button size="sm" reason={reason} onClick={() => setEditing(t)} aria-label={`Edit ${t.name}`}>Edit</Button>
                    <Button size="sm" variant="danger" reason={reason} onClick={() => setDeleting(t)} aria-label={`Delete ${t.name}`}>Delete</Button>
                  </div>
                ),
              },
            ]}
          />
        )}
      </Async>
      <FormDialog open={editing !== null} title={editing === 'new' ? 'Add template' : 'Edit template'} onClose={() => setEditing(null)} onDone={list.reload}>
        {(done) => <TemplateForm slug={slug} template={editing === 'new' ? null : editing} onDone={done} />}
      </FormDialog>
      <DeleteConfirm
        item={deleting}
        collection={projectPath(slug, '/templates')}
        title="Delete this template?"
        message={<>Reports filed from it keep their fields.</>}
        confirmLabel="Delete template"
        deleted="Template deleted"
        onClose={() => setDeleting(null)}
        onDeleted={list.reload}
      />
    </Section>
  )
}

function TemplateForm({ slug, template, onDone }: { slug: string; template: ReportTemplate | null; onDone: () => void }) {
  const [name, setName] = useState(template?.name ?? '')
  const [description, setDescription] = useState(template?.description ?? '')
  const [priority, setPriority] = useState<string>(template?.priority ?? '')
  const [category, setCategory] = useState<string>(template?.category ?? '')
  const [body, setBody] = useState(template?.body_template ?? '')
  const { busy, error, onSubmit } = useAction(async () => {
    const payload = { name: name.trim(), description, priority: priority || null, category: category || null, body_template: body } as TemplateBody
    if (template) await api.patch(projectPath(slug, `/templates/${encodeURIComponent(template.id)}`), payload)
    else await api.post(projectPath(slug, '/templates'), payload)
    toast(template ? 'Template saved' : 'Template added')
    onDone()
  })
  return (
    <form class="stack" onSubmit={onSubmit}>
      <TextField label="Template name" required maxLength={100} value={name} onValue={setName} />
      <TextField label="Template description" maxLength={1000} value={description} onValue={setDescription} />
      <div class="row">
        <Select label="Default priority" value={priority} onValue={setPriority} options={[...NONE, ...PRIORITY_OPTIONS]} />
        <Select label="Default category" value={category} onValue={setCategory} options={[...NONE, ...CATEGORY_OPTIONS]} />
      </div>
      <TextArea label="Body" rows={6} value={body} onValue={setBody} hint="Prefilled into the description of a new report." />
      <FormError error={error} />
      <div class="row" style="justify-content:flex-end">
        <Button type="submit" variant="primary" busy={busy} disabled={!name.trim()}>{template ? 'Save template' : 'Add template'}</Button>
      </div>
    </form>
  )
}
