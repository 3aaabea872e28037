import { useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Badge, Button, FormError, Section, Select, TextField, toast, useAction } from '../components'
import { deniedReason } from '../session'
import type { Dependency } from './types'

/** A report's links: what it blocks and what blocks it, each linking to the other report; add and remove. */
export function DependenciesPanel({ slug, number, onChange }: { slug: string; number: number; onChange?: () => void }) {
  const list = useApi<Dependency[]>(projectPath(slug, `/bugs/${number}/dependencies`))
  const [related, setRelated] = useState('')
  const [relationship, setRelationship] = useState<'blocks' | 'blocked_by'>('blocked_by')
  const reason = deniedReason('bugs.edit')
  const changed = async () => {
    await list.reload()
    onChange?.()
  }
  const add = useAction(async () => {
    await api.post(projectPath(slug, `/bugs/${number}/dependencies`), { related_number: Number(related.replace(/^#/, '')), relationship })
    setRelated('')
    toast('Dependency added')
    await changed()
  })
  const remove = async (d: Dependency) => {
    try {
      await api.delete(projectPath(slug, `/dependencies/${encodeURIComponent(d.id)}`))
      toast('Dependency removed')
      await changed()
    } catch (err) {
      toast(messageOf(err), 'error')
    }
  }
  return (
    <Section title="Dependencies">
      <Async resource={list} empty={<p class="muted small">No dependencies.</p>}>
        {(rows) => (
          <ul class="entry-list" aria-label="Dependencies">
            {rows.map((d) => (
              <li key={d.id} class="spread">
                <span>
                  {d.relationship === 'blocks' ? 'Blocks' : 'Blocked by'}{' '}
                  <a href={`/projects/${encodeURIComponent(slug)}/reports/${d.report.number}`}>#{d.report.number} {d.report.title}</a>{' '}
                  <Badge tone={['resolved', 'closed', 'wont_fix'].includes(d.report.status) ? 'success' : 'neutral'}>{d.report.status.replace('_', ' ')}</Badge>
                </span>
                <Button size="sm" reason={reason} onClick={() => remove(d)} aria-label={`Remove the link to #${d.report.number}`}>Remove</Button>
              </li>
            ))}
          </ul>
        )}
      </Async>
      {!reason && (
        <form class="row" onSubmit={add.onSubmit} aria-label="Add a dependency">
          <Select label="This report" value={relationship} onValue={(v) => setRelationship(v as typeof relationship)} options={[{ value: 'blocked_by', label: 'is blocked by' }, { value: 'blocks', label: 'blocks' }]} />
          <TextField label="Report number" inputMode="numeric" pattern="#?[0-9]+" required placeholder="#12" value={related} onValue={setRelated} />
          <Button type="submit" busy={add.busy} disabled={!related.trim()}>Add dependency</Button>
        </form>
      )}
      <FormError error={add.error} />
    </Section>
  )
}
