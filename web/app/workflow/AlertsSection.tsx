import { useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Badge, Button, DeleteConfirm, EmptyState, FormDialog, FormError, Section, Select, Table, TextField, formatDate, toast, useAction } from '../components'
import { deniedReason } from '../session'
import { ALERT_METRICS, type AlertBody, type AlertRule } from './types'

const metricLabel = (m: string) => ALERT_METRICS.find((x) => x.value === m)?.label ?? m

/** Alert rules: metric, threshold and window; their last evaluation and firing; pause, resume and delete. */
export function AlertsSection({ slug }: { slug: string }) {
  const list = useApi<AlertRule[]>(projectPath(slug, '/alerts'))
  const [adding, setAdding] = useState(false)
  const [deleting, setDeleting] = useState<AlertRule | null>(null)
  const reason = deniedReason('project.settings')
  const toggle = async (r: AlertRule) => {
    try {
      await api.patch(projectPath(slug, `/alerts/${encodeURIComponent(r.id)}`), { enabled: !r.enabled })
      await list.reload()
    } catch (err) {
      toast(messageOf(err), 'error')
    }
  }
  return (
    <Section
      title="Alerts"
      description="Checked every five minutes. A rule fires at most once per window: an email to the project's owner and admins and an entry in the activity feed."
      actions={<Button variant="primary" reason={reason} onClick={() => setAdding(true)}>Add alert</Button>}
    >
      <Async resource={list} empty={<EmptyState title="No alert rules yet">Add one to hear about a wave of crash reports before your players tell you.</EmptyState>}>
        {(rows) => (
          <Table<AlertRule>
            caption="Alert rules"
            rows={rows}
            rowKey={(r) => r.id}
            columns={[
              { key: 'metric', header: 'Rule', render: (r) => (<span>{metricLabel(r.metric)} ≥ {r.threshold} in {r.window_hours} h</span>) },
              { key: 'state', header: 'State', render: (r) => (r.enabled ? <Badge tone="success">active</Badge> : <Badge>paused</Badge>) },
              { key: 'last', header: 'Last check', render: (r) => (r.last_evaluated_at ? `${r.last_value} at ${formatDate(r.last_evaluated_at)}` : 'Not yet') },
              { key: 'fired', header: 'Last fired', render: (r) => formatDate(r.last_fired_at) },
              {
                key: 'actions',
                header: <span class="sr-only">Actions</span>,
                render: (r) => (
                  <div class="row" style="gap:0.35rem">
                    <Button size="sm" reason={reason} onClick={() => toggle(r)} aria-label={`${r.enabled ? 'Pause' : 'Resume'} ${metricLabel(r.metric)} alert`}>{r.enabled ? 'Pause' : 'Resume'}</Button>
                    <Button size="sm" variant="danger" reason={reason} onClick={() => setDeleting(r)} aria-label={`Delete ${metricLabel(r.metric)} alert`}>Delete</Button>
                  </div>
                ),
              },
            ]}
          />
        )}
      </Async>
      <FormDialog open={adding} title="Add alert" onClose={() => setAdding(false)} onDone={list.reload}>
        {(done) => <AlertForm slug={slug} onDone={done} />}
      </FormDialog>
      <DeleteConfirm
        item={deleting}
        collection={projectPath(slug, '/alerts')}
        title="Delete this alert rule?"
        message={<>It stops being checked.</>}
        confirmLabel="Delete alert"
        deleted="Alert deleted"
        onClose={() => setDeleting(null)}
        onDeleted={list.reload}
      />
    </Section>
  )
}

function AlertForm({ slug, onDone }: { slug: string; onDone: () => void }) {
  const [metric, setMetric] = useState<string>('new_crash_reports')
  const [threshold, setThreshold] = useState('10')
  const [hours, setHours] = useState('1')
  const { busy, error, onSubmit } = useAction(async () => {
    const body: AlertBody = { metric: metric as AlertBody['metric'], threshold: Number(threshold), window_hours: Number(hours) }
    await api.post(projectPath(slug, '/alerts'), body)
    toast('Alert added')
    onDone()
  })
  return (
    <form class="stack" onSubmit={onSubmit}>
      <Select label="Metric" value={metric} onValue={setMetric} options={ALERT_METRICS.map((m) => ({ value: m.value, label: m.label }))} />
      <TextField label="Threshold" type="number" min={0} step="any" required value={threshold} onValue={setThreshold} />
      <TextField label="Window (hours)" type="number" min={1} max={720} required value={hours} onValue={setHours} />
      <FormError error={error} />
      <div class="row" style="justify-content:flex-end">
        <Button type="submit" variant="primary" busy={busy}>Add alert</Button>
      </div>
    </form>
  )
}
