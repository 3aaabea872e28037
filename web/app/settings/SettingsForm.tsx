import type { ComponentChildren } from 'preact'
import { useEffect, useId, useState } from 'preact/hooks'
import { api } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Button, FormError, Section, toast, useAction } from '../components'
import type { PermissionKey } from '../api/types'
import { deniedReason } from '../session'
import { changedFields, toColorInput } from './forms'

/**
 * A settings section over one GET/PUT pair: loads the values, keeps an edited copy, saves what changed.
 * `fields` renders the controls from the copy and a setter.
 */
export function SettingsForm<T extends Record<string, unknown>>({
  path,
  title,
  description,
  permission = 'project.settings',
  actions,
  fields,
  method = 'put',
  savedMessage,
  lockedReason,
}: {
  path: string
  title: string
  description?: ComponentChildren
  /** null: anyone signed in may save (their own preferences). */
  permission?: PermissionKey | null
  actions?: ComponentChildren
  fields: (value: T, set: <K extends keyof T>(k: K, v: T[K]) => void) => ComponentChildren
  method?: 'put' | 'patch'
  savedMessage?: string
  /** Why the form cannot be saved beyond permissions (e.g. a plan feature). */
  lockedReason?: string
}) {
  const res = useApi<T>(path)
  return (
    <Section title={title} description={description} actions={actions}>
      <Async resource={res}>{(value) => <Editor value={value} path={path} permission={permission} lockedReason={lockedReason} fields={fields} method={method} savedMessage={savedMessage ?? `${title} saved`} onSaved={(v) => res.set(v)} />}</Async>
    </Section>
  )
}

function Editor<T extends Record<string, unknown>>({
  value,
  path,
  permission,
  fields,
  method,
  savedMessage,
  onSaved,
  lockedReason,
}: {
  value: T
  path: string
  lockedReason?: string
  permission: PermissionKey | null
  fields: (value: T, set: <K extends keyof T>(k: K, v: T[K]) => void) => ComponentChildren
  method: 'put' | 'patch'
  savedMessage: string
  onSaved: (v: T) => void
}) {
  const [form, setForm] = useState<T>(value)
  useEffect(() => setForm(value), [value])
  const reason = (permission ? deniedReason(permission) : undefined) ?? lockedReason
  const changes = changedFields(value, form)
  const dirty = Object.keys(changes).length > 0
  const set = <K extends keyof T>(k: K, v: T[K]) => setForm((f) => ({ ...f, [k]: v }))
  const { busy, error, onSubmit } = useAction(async () => {
    const saved = await api[method]<T | { message: string }>(path, changes)
    onSaved(saved && typeof saved === 'object' && !('message' in saved && Object.keys(saved).length === 1) ? (saved as T) : form)
    toast(savedMessage)
  })
  return (
    <form onSubmit={onSubmit} class="stack">
      {reason && <p class="muted">{reason}</p>}
      <fieldset disabled={Boolean(reason)} class="stack" style="border:0;padding:0">
        {fields(form, set)}
      </fieldset>
      <FormError error={error} />
      <div class="row">
        <Button type="submit" variant="primary" busy={busy} disabled={!dirty} reason={reason}>
          Save
        </Button>
        {dirty && (
          <Button variant="ghost" onClick={() => setForm(value)}>
            Discard changes
          </Button>
        )}
      </div>
    </form>
  )
}

/** A color as text (`#RRGGBB`, or empty when `optional`) with a picker beside it. */
export function ColorField({ label, value, onValue, optional = true }: { label: string; value: string; onValue: (v: string) => void; optional?: boolean }) {
  const id = useId()
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="row" style="flex-wrap:nowrap">
        <input type="color" aria-label={`${label} picker`} value={toColorInput(value)} onInput={(e) => onValue(e.currentTarget.value)} />
        <input id={id} value={value} placeholder={optional ? 'default' : '#RRGGBB'} pattern="#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})" onInput={(e) => onValue(e.currentTarget.value.trim())} />
      </div>
    </div>
  )
}
