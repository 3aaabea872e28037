import { useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { CreateWebhookBody, Webhook, WebhookDelivery, WebhookTestResult } from '../api/types'
import { Async, Badge, Button, Checkbox, DeleteConfirm, Dialog, EmptyState, FormDialog, FormError, Section, Table, TextField, formatDate, toast, useAction } from '../components'
import type { RouteProps } from '../router'
import { deniedReason } from '../session'
import { parseEvents } from './forms'
import { SettingsFrame } from './SettingsFrame'

const EVENTS = [
  { key: 'bug_created', label: 'Report created' },
  { key: 'bug_updated', label: 'Report updated' },
  { key: 'comment_added', label: 'Comment added' },
]

/** `/projects/:slug/settings/webhooks`: create, test (with the receiver's answer), deliveries, delete. */
export function WebhookSettings({ params }: RouteProps) {
  const slug = params.slug!
  const hooks = useApi<Webhook[]>(projectPath(slug, '/webhooks/generic'))
  const [creating, setCreating] = useState(false)
  const [deleting, setDeleting] = useState<Webhook | null>(null)
  const [deliveriesOf, setDeliveriesOf] = useState<Webhook | null>(null)
  const [tests, setTests] = useState<Record<string, { ok: boolean; text: string } | 'busy'>>({})
  const reason = deniedReason('webhooks.manage')

  const test = async (w: Webhook) => {
    setTests((t) => ({ ...t, [w.id]: 'busy' }))
    try {
      const r = await api.post<WebhookTestResult>(projectPath(slug, `/webhooks/generic/${encodeURIComponent(w.id)}/test`))
      setTests((t) => ({ ...t, [w.id]: { ok: r.status_code < 400, text: `${r.message} (HTTP ${r.status_code}${r.signed ? ', signed' : ', unsigned'})` } }))
    } catch (err) {
      setTests((t) => ({ ...t, [w.id]: { ok: false, text: messageOf(err) } }))
    }
  }

  return (
    <SettingsFrame slug={slug} title="Webhooks">
      <Section
        title="Generic webhooks"
        description="Glitchbox POSTs signed JSON to these URLs when reports are created or updated and when comments are added. Failed deliveries are retried after 1, 5, 25 and 125 minutes."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)} reason={reason}>
            Add webhook
          </Button>
        }
      >
        <Async resource={hooks} empty={<EmptyState title="No webhooks yet">Add one to send report events to your own service.</EmptyState>}>
          {(list) => (
            <Table<Webhook>
              caption="Webhooks"
              rows={list}
              rowKey={(w) => w.id}
              columns={[
                {
                  key: 'name',
                  header: 'Webhook',
                  render: (w) => (
                    <div>
                      <strong>{w.name}</strong>
                      <div class="small muted break">{w.url}</div>
                      {tests[w.id] && tests[w.id] !== 'busy' && (
                        <p class={`small ${(tests[w.id] as { ok: boolean }).ok ? 'ok-text' : 'field-error'}`} role="status">
                          Test: {(tests[w.id] as { text: string }).text}
                        </p>
                      )}
                    </div>
                  ),
                },
                {
                  key: 'events',
                  header: 'Events',
                  render: (w) => (
                    <div class="row" style="gap:0.25rem">
                      {parseEvents(w.event_types).map((e) => (
                        <Badge key={e}>{e}</Badge>
                      ))}
                    </div>
                  ),
                },
                { key: 'secret', header: 'Signed', render: (w) => (w.secret_hint ? `Yes (${w.secret_hint})` : 'No') },
                {
                  key: 'actions',
                  header: <span class="sr-only">Actions</span>,
                  render: (w) => (
                    <div class="row" style="gap:0.35rem">
                      <Button size="sm" busy={tests[w.id] === 'busy'} onClick={() => test(w)} reason={reason} aria-label={`Send a test event to ${w.name}`}>
                        Test
                      </Button>
                      <Button size="sm" onClick={() => setDeliveriesOf(w)} reason={reason} aria-label={`Deliveries of ${w.name}`}>
                        Deliveries
                      </Button>
                      <Button size="sm" variant="danger" onClick={() => setDeleting(w)} reason={reason} aria-label={`Delete ${w.name}`}>
                        Delete
                      </Button>
                    </div>
                  ),
                },
              ]}
            />
          )}
        </Async>
      </Section>
      <FormDialog open={creating} title="Add webhook" onClose={() => setCreating(false)} onDone={hooks.reload}>
        {(done) => <CreateWebhook slug={slug} onDone={done} onCancel={() => setCreating(false)} />}
      </FormDialog>
      <Dialog open={deliveriesOf !== null} title={`Deliveries of ${deliveriesOf?.name ?? ''}`} onClose={() => setDeliveriesOf(null)} wide>
        {deliveriesOf && <Deliveries slug={slug} webhook={deliveriesOf} />}
      </Dialog>
      <DeleteConfirm
        item={deleting}
        collection={projectPath(slug, '/webhooks/generic')}
        title="Delete this webhook?"
        message={<>Events stop being sent to {deleting?.url}.</>}
        confirmLabel="Delete webhook"
        deleted="Webhook deleted"
        onClose={() => setDeleting(null)}
        onDeleted={hooks.reload}
      />
    </SettingsFrame>
  )
}

function CreateWebhook({ slug, onDone, onCancel }: { slug: string; onDone: () => void; onCancel: () => void }) {
  const [url, setUrl] = useState('')
  const [name, setName] = useState('')
  const [secret, setSecret] = useState('')
  const [events, setEvents] = useState<string[]>(EVENTS.map((e) => e.key))
  const { busy, error, onSubmit } = useAction(async () => {
    const body: CreateWebhookBody = { url: url.trim(), event_types: events.join(',') }
    if (name.trim()) body.name = name.trim()
    if (secret) body.secret = secret
    await api.post(projectPath(slug, '/webhooks/generic'), body)
    toast('Webhook added')
    onDone()
  })
  return (
    <form onSubmit={onSubmit} class="stack">
      <TextField label="Payload URL" type="url" required placeholder="https://example.com/hooks/glitchbox" value={url} onValue={setUrl} />
      <TextField label="Webhook name" maxLength={100} placeholder="Webhook" value={name} onValue={setName} />
      <TextField label="Signing secret" value={secret} onValue={setSecret} hint="Optional. With a secret every delivery carries X-Glitchbox-Signature: sha256=<HMAC of the body>." autoComplete="off" />
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map((ev) => (
          <Checkbox key={ev.key} label={ev.label} checked={events.includes(ev.key)} onChecked={(on) => setEvents(on ? EVENTS.map((x) => x.key).filter((k) => k === ev.key || events.includes(k)) : events.filter((k) => k !== ev.key))} />
        ))}
      </fieldset>
      <FormError error={error} />
      <div class="row" style="justify-content:flex-end">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} disabled={!url.trim() || events.length === 0}>
          Add webhook
        </Button>
      </div>
    </form>
  )
}

const STATUS_TONE: Record<string, 'success' | 'danger' | 'warning'> = { succeeded: 'success', failed: 'danger', pending: 'warning' }

function Deliveries({ slug, webhook }: { slug: string; webhook: Webhook }) {
  const list = useApi<WebhookDelivery[]>(projectPath(slug, `/webhooks/generic/${encodeURIComponent(webhook.id)}/deliveries`))
  return (
    <div class="stack">
      <div class="row" style="justify-content:flex-end">
        <Button size="sm" onClick={() => void list.reload()} busy={list.loading.value}>
          Refresh
        </Button>
      </div>
      <Async resource={list} empty={<EmptyState title="No deliveries yet">Deliveries appear here when reports and comments trigger this webhook (the 50 most recent).</EmptyState>}>
        {(rows) => (
          <ul class="entry-list" aria-label="Deliveries">
            {rows.map((d) => (
              <li key={d.id} class="entry">
                <div class="spread">
                  <div class="row">
                    <Badge tone={STATUS_TONE[d.status] ?? 'neutral'}>{d.status}</Badge>
                    <strong>{d.event}</strong>
                    {d.is_test && <Badge tone="neutral">Test</Badge>}
                    <span class="small muted">{formatDate(d.created_at)}</span>
                  </div>
                  <span class="small">
                    {d.attempt_count} attempt{d.attempt_count === 1 ? '' : 's'}
                    {d.last_status_code !== null && ` · last HTTP ${d.last_status_code}`}
                    {d.next_attempt_at && ` · next try ${formatDate(d.next_attempt_at)}`}
                  </span>
                </div>
                {d.last_error && <p class="small field-error">{d.last_error}</p>}
                <details>
                  <summary>Attempts and payload</summary>
                  {d.attempts.length > 0 && (
                    <Table
                      caption="Attempts"
                      rows={d.attempts}
                      rowKey={(a) => String(a.attempt)}
                      columns={[
                        { key: 'n', header: '#', render: (a) => a.attempt },
                        { key: 'at', header: 'When', render: (a) => formatDate(a.created_at) },
                        { key: 'status', header: 'Status', render: (a) => (a.status_code ?? '–') },
                        { key: 'ms', header: 'Time', render: (a) => (a.duration_ms === null ? '–' : `${a.duration_ms} ms`) },
                        { key: 'answer', header: 'Answer or error', render: (a) => <span class="small break">{a.error ?? a.response_snippet ?? ''}</span> },
                      ]}
                    />
                  )}
                  <pre class="entry-body" aria-label="Payload" tabIndex={0}>{JSON.stringify(d.payload, null, 2)}</pre>
                </details>
              </li>
            ))}
          </ul>
        )}
      </Async>
    </div>
  )
}
