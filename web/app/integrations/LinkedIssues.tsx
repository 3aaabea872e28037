import './integrations.css'
import { useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Badge, Button, ExternalLink, Section, TextField, toast } from '../components'
import { deniedReason } from '../session'
import type { GitReportIssue, IssueLink, ReportIssues } from './types'

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
                      <ExternalLink href={l.url}>{l.title || l.external_id}</ExternalLink>
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
      <GitIssue slug={slug} number={number} reason={reason} />
    </Section>
  )
}

/** The report's issue in the project's git repository (when one is connected): file it, link an existing one, or unlink. */
function GitIssue({ slug, number, reason }: { slug: string; number: number; reason?: string }) {
  // One read that says whether a repository is connected too: asking GET /git would answer 404 when none is.
  const path = projectPath(slug, `/bugs/${number}/issue`)
  const link = useApi<GitReportIssue>(path)
  const [issueNumber, setIssueNumber] = useState('')
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const conn = link.data.value?.repository
  if (!conn) return null
  const host = conn.provider === 'github' ? 'GitHub' : 'GitLab'
  const run = async (what: string, fn: () => Promise<unknown>) => {
    setBusy(what)
    setError(null)
    try {
      await fn()
      setIssueNumber('')
      await link.reload()
    } catch (err) {
      setError(messageOf(err))
    } finally {
      setBusy(null)
    }
  }
  const issue = link.data.value?.issue
  return (
    <div class="stack">
      <h3>{host} issue</h3>
      {link.error.value && <p class="field-error" role="alert">{link.error.value.message}</p>}
      {link.data.value === undefined && !link.error.value ? null : issue ? (
        <div class="row">
          <ExternalLink href={issue.issue_url}>
            #{issue.issue_number} {issue.issue_title}
          </ExternalLink>
          <Button size="sm" reason={reason} busy={busy === 'unlink'} onClick={() => run('unlink', () => api.delete(path))}>
            Unlink issue
          </Button>
        </div>
      ) : (
        <div class="stack">
          <div>
            <Button size="sm" reason={reason} busy={busy === 'create'} onClick={() => run('create', () => api.post(path, {}))}>
              Create {host} issue
            </Button>
          </div>
          <form class="row" onSubmit={(e) => (e.preventDefault(), void run('link', () => api.post(path, { issue_number: Number(issueNumber) })))}>
            <TextField label="Existing issue number" inputMode="numeric" pattern="[0-9]+" value={issueNumber} onValue={setIssueNumber} disabled={Boolean(reason)} />
            <Button type="submit" size="sm" reason={reason} busy={busy === 'link'} disabled={!/^[1-9][0-9]*$/.test(issueNumber)}>
              Link issue
            </Button>
          </form>
        </div>
      )}
      {error && <p class="field-error" role="alert">{error}</p>}
    </div>
  )
}
