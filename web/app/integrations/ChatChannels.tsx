import { useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { Message } from '../api/types'
import { Async, Badge, Button, Checkbox, ConfirmDialog, Dialog, Section, Table, TextField, toast, useAction } from '../components'
import { eventLabel } from './helpers'
import type { ChatChannel, ChatChannelTest } from './types'

const CHANNEL_EVENTS = ['bug_created', 'bug_updated', 'comment_added'] as const
const NAMES = { discord: 'Discord', slack: 'Slack' } as const
type ChannelProvider = keyof typeof NAMES

/** Discord and Slack channels (`/webhooks/discord`, `/webhooks/slack`): add by incoming webhook URL, test, pause/resume, delete. */
export function ChatChannels({ slug, reason }: { slug: string; reason?: string }) {
  return (
    <Section title="Chat channels" description="Post report events to Discord or Slack channels through their incoming webhooks.">
      <div class="stack">
        <ChannelList slug={slug} provider="discord" reason={reason} />
        <ChannelList slug={slug} provider="slack" reason={reason} />
      </div>
    </Section>
  )
}

function ChannelList({ slug, provider, reason }: { slug: string; provider: ChannelProvider; reason?: string }) {
  const name = NAMES[provider]
  const base = projectPath(slug, `/webhooks/${provider}`)
  const list = useApi<ChatChannel[]>(base)
  const [adding, setAdding] = useState(false)
  const [deleting, setDeleting] = useState<ChatChannel | null>(null)
  const [tests, setTests] = useState<Record<string, { ok: boolean; text: string } | 'busy'>>({})
  const test = async (c: ChatChannel) => {
    setTests((t) => ({ ...t, [c.id]: 'busy' }))
    try {
      const r = await api.post<ChatChannelTest>(`${base}/${encodeURIComponent(c.id)}/test`)
      setTests((t) => ({ ...t, [c.id]: { ok: true, text: `${r.message} (HTTP ${r.status_code})` } }))
    } catch (err) {
      setTests((t) => ({ ...t, [c.id]: { ok: false, text: messageOf(err) } }))
    }
  }
  const toggle = async (c: ChatChannel) => {
    try {
      await api.patch(`${base}/${encodeURIComponent(c.id)}`, { is_active: !c.is_active })
      toast(c.is_active ? `${c.channel_name} paused` : `${c.channel_name} resumed`)
      await list.reload()
    } catch (err) {
      toast(messageOf(err), 'error')
    }
  }
  return (
    <div class="stack">
      <div class="spread">
        <h3>{name} channels</h3>
        <Button size="sm" onClick={() => setAdding(true)} reason={reason}>
          Add {name} channel
        </Button>
      </div>
      <Async resource={list} empty={<p class="muted">No {name} channel yet.</p>}>
        {(rows) => (
          <Table<ChatChannel>
            caption={`${name} channels`}
            rows={rows}
            rowKey={(c) => c.id}
            columns={[
              { key: 'name', header: 'Channel', render: (c) => (<div><strong>{c.channel_name}</strong><div class="muted small">{c.webhook_url_hint}</div></div>) },
              { key: 'events', header: 'Events', render: (c) => <span class="small">{c.event_types.map(eventLabel).join(', ')}</span> },
              { key: 'status', header: 'Status', render: (c) => <Badge tone={c.is_active ? 'success' : 'warning'}>{c.is_active ? 'active' : 'paused'}</Badge> },
              {
                key: 'actions',
                header: <span class="sr-only">Actions</span>,
                render: (c) => {
                  const t = tests[c.id]
                  return (
                    <div class="stack">
                      <div class="row">
                        <Button size="sm" onClick={() => test(c)} busy={t === 'busy'} reason={reason} aria-label={`Test ${name} channel ${c.channel_name}`}>Test</Button>
                        <Button size="sm" onClick={() => toggle(c)} reason={reason} aria-label={`${c.is_active ? 'Pause' : 'Resume'} ${name} channel ${c.channel_name}`}>{c.is_active ? 'Pause' : 'Resume'}</Button>
                        <Button size="sm" variant="danger" onClick={() => setDeleting(c)} reason={reason} aria-label={`Delete ${name} channel ${c.channel_name}`}>Delete</Button>
                      </div>
                      {t && t !== 'busy' && <p class={t.ok ? 'ok-text small' : 'field-error small'} role="status">{t.text}</p>}
                    </div>
                  )
                },
              },
            ]}
          />
        )}
      </Async>
      {adding && <AddChannel base={base} name={name} onClose={() => setAdding(false)} onAdded={() => void list.reload()} />}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${name} channel`}
        message={<>Stop posting to “{deleting?.channel_name}”?</>}
        confirmLabel="Delete"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          const r = await api.delete<Message>(`${base}/${encodeURIComponent(deleting!.id)}`)
          toast(r.message)
          await list.reload()
        }}
      />
    </div>
  )
}

function AddChannel({ base, name, onClose, onAdded }: { base: string; name: string; onClose: () => void; onAdded: () => void }) {
  const [url, setUrl] = useState('')
  const [channel, setChannel] = useState('')
  const [events, setEvents] = useState<string[]>(['bug_created', 'bug_updated'])
  const { busy, error, onSubmit } = useAction(async () => {
    await api.post(base, { webhook_url: url.trim(), ...(channel.trim() && { channel_name: channel.trim() }), event_types: events })
    toast(`${name} channel added`)
    onAdded()
    onClose()
  })
  const formId = `add-${name.toLowerCase()}-channel`
  return (
    <Dialog open title={`Add ${name} channel`} onClose={onClose} footer={<><Button onClick={onClose}>Cancel</Button><Button variant="primary" type="submit" form={formId} busy={busy} disabled={!url.trim() || events.length === 0}>Add channel</Button></>}>
      <form id={formId} class="stack" onSubmit={onSubmit}>
        <TextField label="Webhook URL" type="password" autoComplete="off" hint={`The ${name} incoming webhook URL; it is a credential, stored encrypted.`} value={url} onValue={setUrl} required />
        <TextField label="Channel name" hint="Optional, as it is shown here." value={channel} onValue={setChannel} maxLength={100} />
        <fieldset class="stack">
          <legend>Events</legend>
          {CHANNEL_EVENTS.map((ev) => (
            <Checkbox key={ev} label={eventLabel(ev)} checked={events.includes(ev)} onChecked={(on) => setEvents(on ? [...events, ev] : events.filter((x) => x !== ev))} />
          ))}
        </fieldset>
        {error && <p class="field-error" role="alert">{error}</p>}
      </form>
    </Dialog>
  )
}

