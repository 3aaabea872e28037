import { useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { useApi, type Resource } from '../api/resource'
import type { Message } from '../api/types'
import { Async, Badge, Button, ConfirmDialog, Dialog, EmptyState, Table, formatDate, toast } from '../components'
import { eventLabel, statusTone } from './helpers'
import type { Connection, Delivery } from './types'

type TestState = Record<string, { ok: boolean; text: string } | 'busy'>

/** The project's connections: status, test (the provider's answer or the 502 message), store sync, pause/resume, deliveries, delete. */
export function Connections({ slug, connections, reason, onEdit }: { slug: string; connections: Resource<Connection[]>; reason?: string; onEdit: (c: Connection) => void }) {
  const [tests, setTests] = useState<TestState>({})
  const [deleting, setDeleting] = useState<Connection | null>(null)
  const [deliveriesOf, setDeliveriesOf] = useState<Connection | null>(null)
  const path = (c: Connection, rest = '') => projectPath(slug, `/integrations/${encodeURIComponent(c.provider)}/${encodeURIComponent(c.id)}${rest}`)

  const test = async (c: Connection) => {
    setTests((t) => ({ ...t, [c.id]: 'busy' }))
    try {
      const r = await api.post<Message>(path(c, '/test'))
      setTests((t) => ({ ...t, [c.id]: { ok: true, text: r.message } }))
    } catch (err) {
      setTests((t) => ({ ...t, [c.id]: { ok: false, text: messageOf(err) } }))
    }
  }
  const sync = async (c: Connection) => {
    setTests((t) => ({ ...t, [c.id]: 'busy' }))
    try {
      const r = await api.post<{ fetched: number; new: number; filed: number }>(path(c, '/sync'))
      setTests((t) => ({ ...t, [c.id]: { ok: true, text: `Imported: ${r.fetched} fetched, ${r.new} new, ${r.filed} filed as reports` } }))
    } catch (err) {
      setTests((t) => ({ ...t, [c.id]: { ok: false, text: messageOf(err) } }))
    }
  }
  const toggle = async (c: Connection) => {
    try {
      const r = await api.patch<Message>(path(c), { is_active: !c.is_active })
      toast(r.message)
      await connections.reload()
    } catch (err) {
      toast(messageOf(err), 'error')
    }
  }

  return (
    <>
      <Async resource={connections} empty={<EmptyState title="No connections yet">Connect a provider below.</EmptyState>}>
        {(list) => (
          <Table<Connection>
            caption="Connections"
            rows={list}
            rowKey={(c) => c.id}
            columns={[
              {
                key: 'name',
                header: 'Connection',
                render: (c) => (
                  <div>
                    <strong>{c.name}</strong>
                    <div class="muted small">
                      {c.provider_name} · credential {c.secret_hint}
                    </div>
                  </div>
                ),
              },
              { key: 'events', header: 'Events', render: (c) => <span class="small">{c.event_types.map(eventLabel).join(', ') || '–'}</span> },
              { key: 'min', header: 'Min. priority', render: (c) => c.min_priority },
              { key: 'status', header: 'Status', render: (c) => <Badge tone={c.is_active ? 'success' : 'warning'}>{c.is_active ? 'active' : 'paused'}</Badge> },
              {
                key: 'actions',
                header: <span class="sr-only">Actions</span>,
                render: (c) => {
                  const t = tests[c.id]
                  return (
                    <div class="stack">
                      <div class="row">
                        <Button size="sm" onClick={() => test(c)} busy={t === 'busy'} reason={reason} aria-label={`Test ${c.name}`}>
                          Test
                        </Button>
                        {c.kind === 'store' && (
                          <Button size="sm" onClick={() => sync(c)} busy={t === 'busy'} reason={reason} aria-label={`Sync ${c.name}`}>
                            Sync now
                          </Button>
                        )}
                        <Button size="sm" onClick={() => toggle(c)} reason={reason} aria-label={`${c.is_active ? 'Pause' : 'Resume'} ${c.name}`}>
                          {c.is_active ? 'Pause' : 'Resume'}
                        </Button>
                        <Button size="sm" onClick={() => onEdit(c)} reason={reason} aria-label={`Edit ${c.name}`}>
                          Edit
                        </Button>
                        <Button size="sm" onClick={() => setDeliveriesOf(c)} reason={reason} aria-label={`Deliveries of ${c.name}`}>
                          Deliveries
                        </Button>
                        <Button size="sm" variant="danger" onClick={() => setDeleting(c)} reason={reason} aria-label={`Delete ${c.name}`}>
                          Delete
                        </Button>
                      </div>
                      {t && t !== 'busy' && (
                        <p class={t.ok ? 'ok-text small' : 'field-error small'} role="status">
                          {t.text}
                        </p>
                      )}
                    </div>
                  )
                },
              },
            ]}
          />
        )}
      </Async>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete connection"
        message={<>Delete “{deleting?.name}”? Queued deliveries stop; issues it already linked stay on the reports.</>}
        confirmLabel="Delete"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          const r = await api.delete<Message>(path(deleting!))
          toast(r.message)
          await connections.reload()
        }}
      />
      {deliveriesOf && <Deliveries path={path(deliveriesOf, '/deliveries')} name={deliveriesOf.name} onClose={() => setDeliveriesOf(null)} />}
    </>
  )
}

/** The 50 most recent deliveries of a connection, each with its attempts and the provider's answer. */
function Deliveries({ path, name, onClose }: { path: string; name: string; onClose: () => void }) {
  const list = useApi<Delivery[]>(path)
  return (
    <Dialog open wide title={`Deliveries of ${name}`} onClose={onClose} footer={<Button onClick={() => void list.reload()} busy={list.loading.value}>Refresh</Button>}>
      <Async resource={list} empty={<EmptyState title="No deliveries yet">Events the connection subscribes to appear here once they are sent.</EmptyState>}>
        {(rows) => (
          <Table<Delivery>
            caption={`Deliveries of ${name}`}
            rows={rows}
            rowKey={(d) => d.id}
            columns={[
              { key: 'when', header: 'When', render: (d) => <span class="nowrap">{formatDate(d.created_at)}</span> },
              { key: 'event', header: 'Event', render: (d) => (d.is_test ? <Badge tone="neutral">Test</Badge> : `${eventLabel(d.event)} (${d.action})`) },
              { key: 'status', header: 'Status', render: (d) => <Badge tone={statusTone(d.status)}>{d.status}</Badge> },
              { key: 'attempts', header: 'Attempts', class: 'num', render: (d) => d.attempt_count },
              {
                key: 'answer',
                header: 'Provider’s answer',
                render: (d) => (
                  <div class="small">
                    {d.last_status_code !== null && <span>HTTP {d.last_status_code} </span>}
                    {d.response && <code class="break">{d.response}</code>}
                    {d.last_error && <div class="field-error">{d.last_error}</div>}
                    {d.next_attempt_at && d.status !== 'succeeded' && <div class="muted">next attempt {formatDate(d.next_attempt_at)}</div>}
                  </div>
                ),
              },
            ]}
          />
        )}
      </Async>
    </Dialog>
  )
}
