import './integrations.css'
import { useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Badge, Button, Section, toast } from '../components'
import { deniedReason } from '../session'
import type { IssueLink, ReportIssues } from './types'

/** The report page's "Linked issues": items linked in other tools with their state, and a "File in …" button per tracker connection. */
export function LinkedIssues({ slug, number }: { slug: string; number: number }) {
  const path = projectPath(slug, `/bugs/${number}/issues`)
  const issues = useApi<ReportIssues>(path)
  const [filing, setFiling] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const reason = deniedReason('bugs.edit')
  const file = async (integrationId: string, label: string) => {
    setFiling(integrationId)
    setError(null)
    try {
      const link = await api.post<IssueLink>(path, { integration_id: integrationId })
      toast(`Filed in ${label}: ${link.title}`)
      await issues.reload()
    } catch (err) {
      setError(messageOf(err))
    } finally {
      setFiling(null)
    }
  }
  return (
    <Section title="Linked issues">
      <Async resource={issues}>
        {({ links, trackers }) => {
          const filedThrough = new Set(links.map((l) => l.integration_id))
          return (
            <div class="stack">
              {links.length === 0 ? (
                <p class="muted small">Not linked to any issue yet.</p>
              ) : (
                <ul class="linked-issues" aria-label="Linked issues">
                  {links.map((l) => (
                    <li key={l.id}>
                      <a href={l.url} target="_blank" rel="noopener noreferrer">
                        {l.title || l.external_id}
                      </a>
                      <div class="row small">
                        <span class="muted">{l.provider_name} {l.external_id}</span>
                        {l.state && <Badge tone="info">{l.state}</Badge>}
                      </div>
                    </li>
                  ))}
                </ul>
              )}
              {trackers.length === 0 ? (
                <p class="muted small">
                  No issue tracker connected: <a href={projectPath(slug, '/integrations')}>connect one</a>.
                </p>
              ) : (
                <div class="row">
                  {trackers
                    .filter((t) => !filedThrough.has(t.id))
                    .map((t) => {
                      const label = t.name && t.name !== t.provider_name ? `${t.provider_name} (${t.name})` : t.provider_name
                      return (
                        <Button key={t.id} size="sm" busy={filing === t.id} reason={reason} onClick={() => file(t.id, label)}>
                          File in {label}
                        </Button>
                      )
                    })}
                </div>
              )}
              {reason && trackers.length > 0 && <p class="muted small">{reason}</p>}
              {error && (
                <p class="field-error" role="alert">
                  {error}
                </p>
              )}
            </div>
          )
        }}
      </Async>
    </Section>
  )
}
