import { useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { ChangelogEntry, CreateEntryBody } from '../api/types'
import { Async, Badge, Button, Checkbox, DeleteConfirm, EmptyState, FormDialog, FormError, Section, TextArea, TextField, formatDate, toast, useAction } from '../components'
import type { RouteProps } from '../router'
import { deniedReason } from '../session'
import { SettingsFrame } from './SettingsFrame'

/** `/projects/:slug/settings/changelog`: entries with drafts; create, edit, publish, delete, auto-generate. */
export function ChangelogSettings({ params }: RouteProps) {
  const slug = params.slug!
  const entries = useApi<ChangelogEntry[]>(projectPath(slug, '/changelog/all'))
  const [editing, setEditing] = useState<ChangelogEntry | 'new' | null>(null)
  const [deleting, setDeleting] = useState<ChangelogEntry | null>(null)
  const reason = deniedReason('project.settings')

  const generate = useAction(
    async () => {
      const entry = await api.post<ChangelogEntry>(projectPath(slug, '/changelog/auto-generate'))
      toast('Draft created from recently resolved reports')
      await entries.reload()
      setEditing(entry)
    },
    { toastErrors: true },
  )
  const publish = async (e: ChangelogEntry, publish: boolean) => {
    try {
      await api.patch(projectPath(slug, `/changelog/${encodeURIComponent(e.id)}`), { publish })
      toast(publish ? 'Entry published' : 'Entry moved back to drafts')
      await entries.reload()
    } catch (err) {
      toast(messageOf(err), 'error')
    }
  }

  return (
    <SettingsFrame slug={slug} title="Changelog">
      <Section
        title="Changelog entries"
        description={
          <>
            Published entries appear on <a href={`/changelog/${encodeURIComponent(slug)}`} target="_blank" rel="noopener">the public changelog</a> and its Atom feed.
          </>
        }
        actions={
          <>
            <Button onClick={generate.run} busy={generate.busy} reason={reason}>
              Auto-generate draft
            </Button>
            <Button variant="primary" onClick={() => setEditing('new')} reason={reason}>
              New entry
            </Button>
          </>
        }
      >
        <Async resource={entries} empty={<EmptyState title="No changelog entries yet">Write one, or let Glitchbox draft one from the reports resolved since the last entry.</EmptyState>}>
          {(list) => (
            <ul class="entry-list" aria-label="Changelog entries">
              {list.map((e) => (
                <li key={e.id} class="entry">
                  <div class="spread">
                    <div>
                      <h3>
                        {e.title} {e.version && <Badge tone="info">{e.version}</Badge>} {e.published_at ? <Badge tone="success">Published</Badge> : <Badge tone="warning">Draft</Badge>}
                      </h3>
                      <p class="small muted">{e.published_at ? `Published ${formatDate(e.published_at)}` : `Created ${formatDate(e.created_at)}`}</p>
                    </div>
                    <div class="row">
                      <Button size="sm" onClick={() => setEditing(e)} reason={reason} aria-label={`Edit ${e.title}`}>
                        Edit
                      </Button>
                      <Button size="sm" onClick={() => publish(e, !e.published_at)} reason={reason} aria-label={`${e.published_at ? 'Unpublish' : 'Publish'} ${e.title}`}>
                        {e.published_at ? 'Unpublish' : 'Publish'}
                      </Button>
                      <Button size="sm" variant="danger" onClick={() => setDeleting(e)} reason={reason} aria-label={`Delete ${e.title}`}>
                        Delete
                      </Button>
                    </div>
                  </div>
                  {e.body && (
                    <pre class="entry-body" aria-label={`Text of ${e.title}`} tabIndex={0}>
                      {e.body}
                    </pre>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Async>
      </Section>
      <FormDialog open={editing !== null} title={editing === 'new' ? 'New changelog entry' : 'Edit changelog entry'} wide onClose={() => setEditing(null)} onDone={entries.reload}>
        {(done) => {
          const entry = editing === 'new' ? null : editing
          return <EntryForm key={entry?.id ?? 'new'} slug={slug} entry={entry} onSaved={done} onCancel={() => setEditing(null)} />
        }}
      </FormDialog>
      <DeleteConfirm
        item={deleting}
        collection={projectPath(slug, '/changelog')}
        title="Delete this entry?"
        message={<>“{deleting?.title}” is removed from the changelog and its feed.</>}
        confirmLabel="Delete entry"
        deleted="Entry deleted"
        onClose={() => setDeleting(null)}
        onDeleted={entries.reload}
      />
    </SettingsFrame>
  )
}

function EntryForm({ slug, entry, onSaved, onCancel }: { slug: string; entry: ChangelogEntry | null; onSaved: () => void; onCancel: () => void }) {
  const [title, setTitle] = useState(entry?.title ?? '')
  const [version, setVersion] = useState(entry?.version ?? '')
  const [body, setBody] = useState(entry?.body ?? '')
  const [publish, setPublish] = useState(Boolean(entry?.published_at))
  const { busy, error, onSubmit } = useAction(async () => {
    const payload: CreateEntryBody = { title: title.trim(), body, version: version.trim(), publish }
    if (entry) await api.patch(projectPath(slug, `/changelog/${encodeURIComponent(entry.id)}`), payload)
    else await api.post(projectPath(slug, '/changelog'), payload)
    toast(publish ? 'Entry saved and published' : 'Draft saved')
    onSaved()
  })
  return (
    <form onSubmit={onSubmit} class="stack">
      <TextField label="Entry title" required maxLength={200} value={title} onValue={setTitle} />
      <TextField label="Version" maxLength={50} placeholder="1.2.0" value={version} onValue={setVersion} />
      <TextArea label="Body (Markdown)" rows={12} class="mono" value={body} onValue={setBody} />
      <Checkbox label="Published" hint="Unchecked: a draft only the team sees." checked={publish} onChecked={setPublish} />
      <FormError error={error} />
      <div class="row" style="justify-content:flex-end">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} disabled={!title.trim()}>
          Save entry
        </Button>
      </div>
    </form>
  )
}
