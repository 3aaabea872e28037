import { useEffect, useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { ProjectDetail, RotatedKey, UpdateProjectBody } from '../api/types'
import { Async, Button, Checkbox, ConfirmDialog, CopyButton, FormError, Section, TextArea, TextField, toast, useAction } from '../components'
import { navigate, type RouteProps } from '../router'
import { deniedReason, loadProjects, me, showPlans } from '../session'
import { changedFields } from './forms'
import { SettingsFrame } from './SettingsFrame'

type Form = Required<UpdateProjectBody>

function formOf(p: ProjectDetail): Form {
  return {
    name: p.name,
    description: p.description ?? '',
    website_url: p.website_url ?? '',
    logo_url: p.logo_url ?? '',
    is_public: p.settings.is_public,
    bug_grouping: p.settings.bug_grouping,
    ...p.sdk_settings,
  }
}

/** `/projects/:slug/settings/general`: every updatable project field, the SDK key (rotate) and deletion. */
export function GeneralSettings({ params }: RouteProps) {
  const project = useApi<ProjectDetail>(projectPath(params.slug!))
  return (
    <SettingsFrame slug={params.slug!} title="General">
      <Async resource={project}>{(p) => <GeneralForm project={p} onSaved={() => void project.reload()} />}</Async>
    </SettingsFrame>
  )
}

function GeneralForm({ project, onSaved }: { project: ProjectDetail; onSaved: () => void }) {
  const [form, setForm] = useState<Form>(() => formOf(project))
  const [apiKey, setApiKey] = useState(project.api_key)
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null)
  useEffect(() => setForm(formOf(project)), [project])
  const reason = deniedReason('project.settings')
  const set = <K extends keyof Form>(k: K) => (v: Form[K]) => setForm((f) => ({ ...f, [k]: v }))
  const changes = changedFields(formOf(project), form)
  const dirty = Object.keys(changes).length > 0
  const user = me.value
  const mayDelete = user?.account?.role === 'owner' || project.created_by === user?.id
  const slug = project.slug

  const { busy, error, onSubmit } = useAction(async () => {
    await api.patch(projectPath(slug), changes)
    toast('Project settings saved')
    await loadProjects().catch(() => undefined)
    onSaved()
  })

  return (
    <>
      <form onSubmit={onSubmit}>
        <Section title="Project" description="Name, description and links shown on the dashboard and the public pages.">
          <fieldset disabled={Boolean(reason)} class="stack" style="border:0;padding:0">
            {reason && <p class="muted">{reason}</p>}
            <TextField label="Project name" required maxLength={150} value={form.name} onValue={set('name')} />
            <TextArea label="Description" rows={3} value={form.description} onValue={set('description')} />
            <div class="grid-2">
              <TextField label="Website" type="url" placeholder="https://" value={form.website_url} onValue={set('website_url')} />
              <TextField label="Logo URL" type="url" placeholder="https://" value={form.logo_url} onValue={set('logo_url')} />
            </div>
            <Checkbox label="Accept reports from the SDK (public project)" hint="When off, every SDK call with this project's key is refused." checked={form.is_public} onChecked={set('is_public')} />
            <Checkbox label="Group duplicate reports" hint="A submitted report with the same title as an open one is stacked onto it as an occurrence." checked={form.bug_grouping} onChecked={set('bug_grouping')} />
          </fieldset>
        </Section>
        <Section title="SDK settings" description="What the game's SDK captures (read by the SDK from /api/bugs/settings).">
          <fieldset disabled={Boolean(reason)} class="stack" style="border:0;padding:0">
            <Checkbox label="Capture a screenshot with each report" checked={form.screenshot_capture} onChecked={set('screenshot_capture')} />
            <Checkbox label="Record play sessions" checked={form.session_capture} onChecked={set('session_capture')} />
            <Checkbox label="File errors automatically" checked={form.auto_file_errors} onChecked={set('auto_file_errors')} />
            <Checkbox label="Capture errors in the editor" checked={form.capture_editor_errors} onChecked={set('capture_editor_errors')} />
            <Checkbox label="Capture warnings" checked={form.capture_warnings} onChecked={set('capture_warnings')} />
          </fieldset>
          <FormError error={error} />
          <div class="row" style="margin-top:1rem">
            <Button type="submit" variant="primary" busy={busy} disabled={!dirty} reason={reason}>
              Save changes
            </Button>
            {dirty && (
              <Button variant="ghost" onClick={() => setForm(formOf(project))}>
                Discard changes
              </Button>
            )}
          </div>
        </Section>
      </form>

      <Section title="SDK key" description="Games send reports with this key. Rotating it stops the old key at once.">
        <div class="keyline">
          <code aria-label="SDK key">{apiKey}</code>
          <CopyButton text={apiKey} label="Copy SDK key" />
          <Button variant="secondary" reason={reason} onClick={() => setConfirm('rotate')}>
            Rotate key
          </Button>
        </div>
      </Section>

      <Section title="Danger zone">
        <div class="spread">
          <p class="muted" style="margin:0">Deleting the project deletes its reports, comments and files.{showPlans.value && " Its reports still count toward the plan's quota."}</p>
          <Button variant="danger" reason={mayDelete ? undefined : 'Only the account owner or the teammate who created this project can delete it.'} onClick={() => setConfirm('delete')}>
            Delete project
          </Button>
        </div>
      </Section>

      <ConfirmDialog
        open={confirm === 'rotate'}
        title="Rotate the SDK key?"
        message="Games using the current key stop being able to send reports until they get the new one."
        confirmLabel="Rotate key"
        typed={slug}
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          const r = await api.post<RotatedKey>(projectPath(slug, '/rotate-key'))
          setApiKey(r.api_key)
          toast('New SDK key created; the old one no longer works')
        }}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        title={`Delete ${project.name}?`}
        message="This deletes the project with all its reports. It cannot be undone."
        confirmLabel="Delete project"
        typed={slug}
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          await api.delete(projectPath(slug))
          await loadProjects().catch(() => undefined)
          toast('Project deleted')
          navigate('/')
        }}
      />
    </>
  )
}
