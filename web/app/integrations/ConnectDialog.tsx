import { useEffect, useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { Button, Checkbox, Dialog, ExternalLink, Field, Select, TextArea, TextField, toast, useAction } from '../components'
import { connectBody, eventLabel, fieldChoices, fieldLabel, formFromConnection, initialForm, isOptionalField, PRIORITIES, targetField, updateBody, type ConnectForm } from './helpers'
import type { Connection, CreateIntegrationBody, ProviderView, Target, UpdateIntegrationBody } from './types'

/**
 * The connect form of one provider: credential (password field), config fields, target picker, events, minimum
 * priority. With `connection` it edits that connection instead (PATCH of what changed; an empty secret keeps the saved one).
 */
export function ConnectDialog({ slug, provider, connection, onClose, onCreated }: { slug: string; provider: ProviderView | null; connection?: Connection | null; onClose: () => void; onCreated: () => void }) {
  const [form, setForm] = useState<ConnectForm | null>(null)
  const [targets, setTargets] = useState<Target[] | null>(null)
  const [targetsError, setTargetsError] = useState<string | null>(null)
  const [loadingTargets, setLoadingTargets] = useState(false)
  const [keyFile, setKeyFile] = useState<string | null>(null)
  const { busy, error, setError, run } = useAction(async (p: ProviderView, body: CreateIntegrationBody | UpdateIntegrationBody) => {
    if (connection) {
      const r = await api.patch<{ message: string }>(projectPath(slug, `/integrations/${p.key}/${encodeURIComponent(connection.id)}`), body)
      toast(r.message)
    } else {
      await api.post(projectPath(slug, `/integrations/${p.key}`), body)
      toast(`${p.name} connected`)
    }
    onCreated()
    onClose()
  })
  useEffect(() => {
    setKeyFile(null)
    setForm(provider ? (connection ? formFromConnection(provider, connection) : initialForm(provider)) : null)
    setTargets(null)
    setTargetsError(null)
    setError(null)
  }, [provider?.key, connection?.id])
  if (!provider || !form) return <Dialog open={false} title="Connect" onClose={onClose}>{null}</Dialog>
  const p = provider
  const tField = targetField(p)
  const set = (patch: Partial<ConnectForm>) => setForm({ ...form, ...patch })
  const setConfig = (k: string, v: string) => setForm({ ...form, config: { ...form.config, [k]: v } })

  const loadTargets = async () => {
    setLoadingTargets(true)
    setTargetsError(null)
    try {
      const config = Object.fromEntries(Object.entries(form.config).filter(([k, v]) => v.trim() && k !== tField && k !== 'status_map'))
      const who = form.secret.trim() ? { secret: form.secret.trim() } : { id: connection!.id }
      const list = await api.post<Target[]>(projectPath(slug, `/integrations/${p.key}/targets`), { ...who, ...(Object.keys(config).length && { config }) })
      setTargets(list)
      if (tField && list.length && !form.config[tField]) setConfig(tField, list[0]!.id)
    } catch (err) {
      setTargets(null)
      setTargetsError(messageOf(err))
    } finally {
      setLoadingTargets(false)
    }
  }

  const submit = (e: Event) => {
    e.preventDefault()
    setError(null)
    let body
    try {
      body = connection ? updateBody(p, form, connection) : connectBody(p, form)
    } catch (err) {
      setError(messageOf(err))
      return
    }
    if (connection && Object.keys(body).length === 0) {
      toast('Nothing changed')
      onClose()
      return
    }
    void run(p, body)
  }

  const formId = connection ? `edit-${connection.id}` : `connect-${p.key}`
  return (
    <Dialog
      open
      wide
      title={connection ? `Edit ${connection.name}` : `Connect ${p.name}`}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form={formId} busy={busy} disabled={!connection && !form.secret.trim()}>
            {connection ? 'Save' : 'Connect'}
          </Button>
        </>
      }
    >
      <form id={formId} class="stack" onSubmit={submit}>
        <p class="muted small">
          {p.credential.help}{' '}
          <ExternalLink href={p.credential.url}>Where to get it</ExternalLink>
        </p>
        {keyFile ? (
          <div class="row">
            <span>
              {p.credential.label}: loaded from <strong>{keyFile}</strong> ({form.secret.length} characters)
            </span>
            <Button size="sm" onClick={() => (setKeyFile(null), set({ secret: '' }))}>
              Clear key
            </Button>
          </div>
        ) : (
          <TextField
            label={p.credential.label}
            type="password"
            autoComplete="off"
            hint={connection ? `Leave empty to keep the saved one (${connection.secret_hint}).` : undefined}
            value={form.secret}
            onValue={(v) => set({ secret: v })}
            required={!connection}
          />
        )}
        {p.kind === 'store' && !keyFile && (
          // A key file keeps its line breaks only when read as a file: a password field drops them.
          <Field label={`${p.credential.label} file`} hint="Or choose the downloaded key file.">
            {({ id, describedBy }) => (
              <input
                id={id}
                type="file"
                aria-describedby={describedBy}
                accept=".json,.p8,application/json,text/plain"
                onChange={async (e) => {
                  const file = e.currentTarget.files?.[0]
                  if (!file) return
                  set({ secret: (await file.text()).trim() })
                  setKeyFile(file.name)
                }}
              />
            )}
          </Field>
        )}
        <TextField label="Connection name" hint={`Optional; “${p.name}” when empty.`} value={form.name} onValue={(v) => set({ name: v })} maxLength={100} />
        {Object.entries(p.config).map(([k, description]) => {
          if (k === tField) return null
          const choices = fieldChoices(description)
          if (choices)
            return <Select key={k} label={fieldLabel(k)} hint={description} value={form.config[k] || choices[0]!} onValue={(v) => setConfig(k, v)} options={choices.map((c) => ({ value: c, label: c }))} />
          if (k === 'status_map') return <TextArea key={k} label={fieldLabel(k)} hint={description} value={form.config[k] ?? ''} onValue={(v) => setConfig(k, v)} rows={2} />
          return <TextField key={k} label={fieldLabel(k)} hint={description} value={form.config[k] ?? ''} onValue={(v) => setConfig(k, v)} required={!isOptionalField(description)} />
        })}
        {tField && (
          <div class="stack">
            <div class="row">
              <Button onClick={loadTargets} busy={loadingTargets} disabled={!connection && !form.secret.trim()}>
                Load targets
              </Button>
              <span class="muted small">Lists what the {connection && !form.secret.trim() ? 'saved' : 'pasted'} credential reaches.</span>
            </div>
            {targetsError && (
              <p class="field-error" role="alert">
                {targetsError}
              </p>
            )}
            {targets && targets.length === 0 && <p class="muted">The credential reaches no {tField.replace(/_/g, ' ')}: check its access.</p>}
            {targets && targets.length > 0 ? (
              <Select
                label={`Target (${fieldLabel(tField)})`}
                hint={p.config[tField]}
                value={form.config[tField] ?? ''}
                onValue={(v) => setConfig(tField, v)}
                options={targets.map((t) => ({ value: t.id, label: t.group ? `${t.group} / ${t.name}` : t.name }))}
              />
            ) : (
              <TextField label={`Target (${fieldLabel(tField)})`} hint={`${p.config[tField]}; or type its id.`} value={form.config[tField] ?? ''} onValue={(v) => setConfig(tField, v)} />
            )}
          </div>
        )}
        <fieldset class="stack">
          <legend>Events</legend>
          {p.events.map((ev) => (
            <Checkbox key={ev} label={eventLabel(ev)} checked={form.events.includes(ev)} onChecked={(on) => set({ events: on ? [...form.events, ev] : form.events.filter((x) => x !== ev) })} />
          ))}
        </fieldset>
        {p.kind !== 'store' && (
          <Select label="Minimum priority" hint="Only reports at or above it are sent." value={form.minPriority} onValue={(v) => set({ minPriority: v as ConnectForm['minPriority'] })} options={PRIORITIES.map((x) => ({ value: x, label: x }))} />
        )}
        {error && (
          <p class="field-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  )
}
