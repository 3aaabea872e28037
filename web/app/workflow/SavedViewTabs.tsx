import { useState } from 'preact/hooks'
import { api, messageOf } from '../api/client'
import { useApi } from '../api/resource'
import { Button, Checkbox, Dialog, FormDialog, FormError, TextField, toast, useAction } from '../components'
import { usePermissions } from '../reports/project-lookups'
import type { SavedView } from './types'

/** The list URL a view stands for. */
export function viewHref(slug: string, v: Pick<SavedView, 'filters' | 'sort_by'>): string {
  const params = new URLSearchParams()
  for (const [k, val] of Object.entries((v.filters ?? {}) as Record<string, string>)) if (val) params.set(k, val)
  if (v.sort_by && v.sort_by !== 'newest') params.set('sort', v.sort_by)
  const s = params.toString()
  return `/projects/${encodeURIComponent(slug)}/reports${s ? `?${s}` : ''}`
}

/** The list's filters as a view stores them: every parameter but the page and the sort. */
export function filtersOf(search: string): { filters: Record<string, string>; sort_by: string | null } {
  const params = new URLSearchParams(search)
  const filters: Record<string, string> = {}
  for (const [k, v] of params) if (k !== 'page' && k !== 'sort' && v) filters[k] = v
  return { filters, sort_by: params.get('sort') }
}

/**
 * Pinned saved views as tabs over the report list (the current one marked), "Save view" for the
 * list as it is now, and "Manage views" to pin, reorder and delete. Views are private to their owner.
 */
export function SavedViewTabs({ slug, projectId, search }: { slug: string; projectId: string; search: string }) {
  const views = useApi<SavedView[]>('/saved-views', { query: { project_id: projectId } })
  const [saving, setSaving] = useState(false)
  const [managing, setManaging] = useState(false)
  const { reason } = usePermissions(slug)
  const here = viewHref(slug, filtersOf(search))
  const pinned = (views.data.value ?? []).filter((v) => v.pinned)
  return (
    <nav class="row saved-views" aria-label="Saved views">
      <a href={`/projects/${encodeURIComponent(slug)}/reports`} class="tab" aria-current={here === `/projects/${encodeURIComponent(slug)}/reports` ? 'page' : undefined}>
        All reports
      </a>
      {pinned.map((v) => (
        <a key={v.id} href={viewHref(slug, v)} class="tab" aria-current={viewHref(slug, v) === here ? 'page' : undefined}>
          {v.name}
        </a>
      ))}
      <Button size="sm" onClick={() => setSaving(true)} reason={reason('bugs.view')}>Save view</Button>
      {(views.data.value?.length ?? 0) > 0 && <Button size="sm" onClick={() => setManaging(true)}>Manage views</Button>}
      <FormDialog open={saving} title="Save this view" onClose={() => setSaving(false)} onDone={views.reload}>
        {(done) => <SaveView projectId={projectId} search={search} onDone={done} />}
      </FormDialog>
      <Dialog open={managing} title="Your saved views" onClose={() => setManaging(false)}>
        <ManageViews views={views.data.value ?? []} onChange={() => void views.reload()} />
      </Dialog>
    </nav>
  )
}

function SaveView({ projectId, search, onDone }: { projectId: string; search: string; onDone: () => void }) {
  const [name, setName] = useState('')
  const [pinned, setPinned] = useState(true)
  const { error, onSubmit } = useAction(async () => {
    const { filters, sort_by } = filtersOf(search)
    await api.post('/saved-views', { name: name.trim(), project_id: projectId, filters, sort_by, pinned })
    toast('View saved')
    onDone()
  })
  return (
    <form class="stack" onSubmit={onSubmit}>
      <TextField label="View name" required maxLength={100} value={name} onValue={setName} />
      <Checkbox label="Pin as a tab over the list" checked={pinned} onChecked={setPinned} />
      <FormError error={error} />
      <div class="row" style="justify-content:flex-end">
        <Button type="submit" variant="primary" disabled={!name.trim()}>Save view</Button>
      </div>
    </form>
  )
}

function ManageViews({ views, onChange }: { views: SavedView[]; onChange: () => void }) {
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn()
      onChange()
    } catch (err) {
      toast(messageOf(err), 'error')
    }
  }
  return (
    <ul class="entry-list" aria-label="Saved views">
      {views.map((v, i) => (
        <li key={v.id} class="spread">
          <strong>{v.name}</strong>
          <div class="row" style="gap:0.35rem">
            <Button size="sm" onClick={() => act(() => api.patch(`/saved-views/${v.id}`, { pinned: !v.pinned }))} aria-label={`${v.pinned ? 'Unpin' : 'Pin'} ${v.name}`}>{v.pinned ? 'Unpin' : 'Pin'}</Button>
            <Button size="sm" disabled={i === 0} onClick={() => act(() => api.patch(`/saved-views/${v.id}`, { position: i - 1 }))} aria-label={`Move ${v.name} up`}>↑</Button>
            <Button size="sm" disabled={i === views.length - 1} onClick={() => act(() => api.patch(`/saved-views/${v.id}`, { position: i + 1 }))} aria-label={`Move ${v.name} down`}>↓</Button>
            <Button size="sm" variant="danger" onClick={() => act(() => api.delete(`/saved-views/${v.id}`))} aria-label={`Delete ${v.name}`}>Delete</Button>
          </div>
        </li>
      ))}
    </ul>
  )
}
