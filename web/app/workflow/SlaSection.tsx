import { useEffect, useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Button, FormError, Section, TextField, toast, useAction } from '../components'
import { PRIORITY_OPTIONS } from '../reports/report-enums'
import { deniedReason } from '../session'
import type { SlaBody, SlaRules } from './types'

type Row = { response: string; resolve: string }

/** SLA rules: response and resolve hours per priority (blank = no SLA for that priority); saving replaces them all. */
export function SlaSection({ slug }: { slug: string }) {
  const sla = useApi<SlaRules>(projectPath(slug, '/sla'))
  const [rows, setRows] = useState<Record<string, Row>>({})
  const { busy, error, setError, run } = useAction(async (rules: SlaBody['rules']) => {
    await api.put(projectPath(slug, '/sla'), { rules })
    toast('SLA rules saved')
    await sla.reload()
  })
  const reason = deniedReason('project.settings')
  useEffect(() => {
    const rules = sla.data.value?.rules ?? []
    setRows(Object.fromEntries(PRIORITY_OPTIONS.map((p) => {
      const r = rules.find((x) => x.priority === p.value)
      return [p.value, { response: r ? String(r.response_hours) : '', resolve: r ? String(r.resolve_hours) : '' }]
    })))
  }, [sla.data.value])
  const save = (e: Event) => {
    e.preventDefault()
    setError(null)
    const rules: SlaBody['rules'] = []
    for (const p of PRIORITY_OPTIONS) {
      const r = rows[p.value]
      if (!r || (!r.response && !r.resolve)) continue
      if (!r.response || !r.resolve) return setError(`${p.label}: give both the response and the resolve hours, or neither`)
      rules.push({ priority: p.value, response_hours: Number(r.response), resolve_hours: Number(r.resolve) })
    }
    void run(rules)
  }
  const set = (priority: string, key: keyof Row, value: string) => setRows((r) => ({ ...r, [priority]: { ...r[priority]!, [key]: value } }))
  return (
    <Section title="SLA" description="Hours to the first team response (a comment or status change) and to resolution, per priority. Reports show ok, at risk (last fifth of the window) or breached; a breach notifies the assignee, or the admins when nobody is assigned.">
      <Async resource={sla}>
        {() => (
          <form class="stack" onSubmit={save}>
            {PRIORITY_OPTIONS.map((p) => (
              <fieldset key={p.value} class="row">
                <legend>{p.label}</legend>
                <TextField label={`${p.label}: response hours`} type="number" min={0} step="any" value={rows[p.value]?.response ?? ''} onValue={(v) => set(p.value, 'response', v)} disabled={Boolean(reason)} />
                <TextField label={`${p.label}: resolve hours`} type="number" min={0} step="any" value={rows[p.value]?.resolve ?? ''} onValue={(v) => set(p.value, 'resolve', v)} disabled={Boolean(reason)} />
              </fieldset>
            ))}
            <FormError error={error} />
            <div class="row" style="justify-content:flex-end">
              <Button type="submit" variant="primary" busy={busy} reason={reason}>Save SLA rules</Button>
            </div>
          </form>
        )}
      </Async>
    </Section>
  )
}
