import { useEffect, useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { ProjectDetail, ProjectUpdated, RotatedKey, UpdateProjectBody } from '../api/types'
import { Async, Button, Checkbox, ConfirmDialog, CopyButton, formatDate, FormError, Section, Select, TextArea, TextField, toast, useAction } from '../components'
import { navigate, type RouteProps } from '../router'
import { deniedReason, loadProjects, me, showPlans } from '../session'
import { PreviousKey } from '../projects/SdkKeys'
import { changedFields } from './forms'
import { SettingsFrame } from './SettingsFrame'

type Form = Required<UpdateProjectBody>

function formOf(p: ProjectDetail): Form {
  return {
    name: p.name,
    slug: p.slug,
    description: p.description ?? '',
    website_url: p.website_url ?? '',
    logo_url: p.logo_url ?? '',
    is_public: p.settings.is_public,
    bug_grouping: p.settings.bug_grouping,
    ...p.sdk_settings,
  }
}

/** How long the old key keeps working after a rotation (the server takes 0, 1, 7 or 30 days). */
const GRACE_OPTIONS = [
  { value: '0', label: 'Stop the old key now' },
  { value: '1', label: 'Keep the old key working for 1 day' },
  { value: '7', label: 'Keep the old key working for 7 days' },
  { value: '30', label: 'Keep the old key working for 30 days' },
]

/** `/projects/:slug/settings/general`: every updatable project field (the slug too), the SDK key (rotate, with a grace period) and deletion. */
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
  const [keys, setKeys] = useState<RotatedKey>(() => keysOf(project))
  const [grace, setGrace] = useState('0')
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
    const saved = await api.patch<ProjectUpdated>(projectPath(slug), changes)
    toast(saved.slug === slug ? 'Project settings saved' : `Project settings saved; the old address redirects to ${saved.slug} for 90 days`)
    await loadProjects().catch(() => undefined)
    if (saved.slug !== slug) navigate(`/projects/${encodeURIComponent(saved.slug)}/settings/general`, { replace: true })
    else onSaved()
  })

  return (
    <>
      <form onSubmit={onSubmit}>
        <Section title="Project" description="Name, description and links shown on the dashboard and the public pages.">
          <fieldset disabled={Boolean(reason)} class="stack" style="border:0;padding:0">
            {reason && <p class="muted">{reason}</p>}
            <TextField label="Project name" required maxLength={150} value={form.name} onValue={set('name')} />
            <TextField
              label="Slug"
              required
              maxLength={60}
              hint={`In every URL of the project, e.g. ${window.location.origin}/tracker/${form.slug || 'slug'}. Any free slug is yours as typed; the old URLs redirect to the new ones for 90 days.`}
              value={form.slug}
              onValue={set('slug')}
            />
            <TextArea label="Description" rows={3} value={form.description} onValue={set('description')} />
            <div class="grid-2">
              <TextField label="Website" type="url" placeholder="https://" value={form.website_url} onValue={set('website_url')} />
              <TextField label="Logo URL" type="url" placeholder="https://" value={form.logo_url} onValue={set('logo_url')} />
            </div>
            <Checkbox label="Accept reports from the SDK (public project)" hint="When off, every SDK call with this project's key is refused." checked={form.is_public} onChecked={set('is_public')} />
            <Checkbox label="Group duplicate reports" hint="A new submission that matches a live report is stacked onto it as an occurrence. A crash or error matches on its type and the top in-app frame of its stack (its type and message when that frame has no name, or when there is no stack); a player's report matches on its title." checked={form.bug_grouping} onChecked={set('bug_grouping')} />
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

      <Section
        title="SDK key"
        description={
          <>
            Games send reports with this key. Rotating it can keep the old key working for a while, since shipped builds cannot all be updated at once. The DSN, the snippets for each
            engine and the SDK rate limit are on the <a href={`/projects/${encodeURIComponent(slug)}/setup`}>SDK setup page</a>.
          </>
        }
      >
        <div class="stack">
          <div class="keyline">
            <code aria-label="SDK key">{keys.api_key}</code>
            <CopyButton text={keys.api_key} label="Copy SDK key" />
            <Button variant="secondary" reason={reason} onClick={() => setConfirm('rotate')}>
              Rotate key
            </Button>
          </div>
          <PreviousKey keys={keys} />
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
        message={
          <div class="stack">
            <p>Games with the current key need the new one. Builds already shipped keep the old key until they are updated: a grace period lets them report meanwhile.</p>
            <Select label="Grace period" value={grace} onValue={setGrace} options={GRACE_OPTIONS} />
            {keys.previous_api_key && <p class="muted small">The key retired earlier ({keyTail(keys.previous_api_key)}) stops now either way.</p>}
          </div>
        }
        confirmLabel="Rotate key"
        typed={slug}
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          const r = await api.post<RotatedKey>(projectPath(slug, '/rotate-key'), { grace_days: Number(grace) })
          setKeys(r)
          setGrace('0')
          toast(r.previous_api_key_expires_at ? `New SDK key created; the old one works until ${formatDate(r.previous_api_key_expires_at)}` : 'New SDK key created; the old one no longer works')
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

const keysOf = (p: ProjectDetail): RotatedKey => ({ api_key: p.api_key, previous_api_key: p.previous_api_key, previous_api_key_expires_at: p.previous_api_key_expires_at })

/** The end of a key, enough to tell two apart. */
const keyTail = (key: string) => `…${key.slice(-6)}`
