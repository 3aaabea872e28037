import { useState } from 'preact/hooks'
import { api, messageOf, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { Message } from '../api/types'
import { Button, Checkbox, ConfirmDialog, ErrorState, ExternalLink, formatDate, Section, Select, Spinner, TextField, toast, useAction } from '../components'
import { deniedReason } from '../session'
import type { GitConnection, GitIssue } from './types'

/** The project's GitHub or GitLab repository: connect, automatic issues toggle, token replacement, issue search, disconnect. */
export function GitSection({ slug, reason }: { slug: string; reason?: string }) {
  const base = projectPath(slug, '/git')
  const git = useApi<GitConnection>(base)
  const error = git.error.value
  let body
  if (error && error.status !== 404) body = <ErrorState title="Could not load the repository" message={error.message} onRetry={() => void git.reload()} />
  else if (error?.status === 404) body = <ConnectGit base={base} reason={reason} onConnected={() => void git.reload()} />
  else if (!git.data.value) body = <Spinner />
  else body = <Connected slug={slug} base={base} conn={git.data.value} reason={reason} onChange={() => void git.reload()} />
  return (
    <Section title="Git repository" description="File reports as GitHub or GitLab issues, by hand from a report or automatically for every new one.">
      {body}
    </Section>
  )
}

function ConnectGit({ base, reason, onConnected }: { base: string; reason?: string; onConnected: () => void }) {
  const [provider, setProvider] = useState<'github' | 'gitlab'>('github')
  const [repoUrl, setRepoUrl] = useState('')
  const [token, setToken] = useState('')
  const [auto, setAuto] = useState(false)
  const { busy, error, onSubmit } = useAction(async () => {
    await api.post(base, { provider, repo_url: repoUrl.trim(), access_token: token.trim(), auto_create_issues: auto })
    toast('Repository connected')
    onConnected()
  })
  return (
    <form class="stack" onSubmit={onSubmit}>
      <p class="muted">No repository connected.</p>
      <Select label="Git provider" value={provider} onValue={(v) => setProvider(v as 'github' | 'gitlab')} options={[{ value: 'github', label: 'GitHub' }, { value: 'gitlab', label: 'GitLab' }]} disabled={Boolean(reason)} />
      <TextField label="Repository URL" type="url" placeholder={provider === 'github' ? 'https://github.com/studio/game' : 'https://gitlab.com/studio/game'} value={repoUrl} onValue={setRepoUrl} required disabled={Boolean(reason)} />
      <TextField
        label="Access token"
        type="password"
        autoComplete="off"
        hint={provider === 'github' ? 'A fine-grained personal access token with Issues read and write on the repository.' : 'A project or personal access token with the api scope.'}
        value={token}
        onValue={setToken}
        required
        disabled={Boolean(reason)}
      />
      <Checkbox label="Create an issue for every new report" checked={auto} onChecked={setAuto} disabled={Boolean(reason)} />
      {error && <p class="field-error" role="alert">{error}</p>}
      <div>
        <Button type="submit" variant="primary" busy={busy} reason={reason} disabled={!repoUrl.trim() || !token.trim()}>
          Connect repository
        </Button>
      </div>
    </form>
  )
}

/** Why the last automatic issue was not filed (it is retried after 1, 5, 25 and 125 minutes); gone once one is filed. */
function AutoIssueError({ slug, failure }: { slug: string; failure: NonNullable<GitConnection['last_auto_issue_error']> }) {
  return (
    <p class="field-error" role="status">
      The last automatic issue failed
      {failure.report_number !== null && (
        <>
          {' '}for <a href={`/projects/${encodeURIComponent(slug)}/reports/${failure.report_number}`}>report #{failure.report_number}</a>
        </>
      )}
      {failure.at && <> ({formatDate(failure.at)})</>}: {failure.message}. It is retried after 1, 5, 25 and 125 minutes.
    </p>
  )
}

function Connected({ slug, base, conn, reason, onChange }: { slug: string; base: string; conn: GitConnection; reason?: string; onChange: () => void }) {
  const [token, setToken] = useState('')
  const [removing, setRemoving] = useState(false)
  const patch = async (body: Record<string, unknown>, done: string) => {
    try {
      await api.patch(base, body)
      toast(done)
      onChange()
    } catch (err) {
      toast(messageOf(err), 'error')
    }
  }
  return (
    <div class="stack">
      <p>
        <strong>{conn.provider === 'github' ? 'GitHub' : 'GitLab'}</strong>:{' '}
        <ExternalLink href={conn.repo_url}>{conn.repo_path ?? conn.repo_url}</ExternalLink>
        {conn.token_hint && <span class="muted small"> · token {conn.token_hint}</span>}
      </p>
      {conn.last_auto_issue_error && <AutoIssueError slug={slug} failure={conn.last_auto_issue_error} />}
      <Checkbox
        label="Create an issue for every new report"
        checked={conn.auto_create_issues}
        disabled={Boolean(reason)}
        title={reason}
        onChecked={(on) => void patch({ auto_create_issues: on }, on ? 'New reports will be filed as issues' : 'Automatic issues turned off')}
      />
      <form class="row" onSubmit={(e) => (e.preventDefault(), void patch({ access_token: token.trim() }, 'Access token replaced').then(() => setToken('')))}>
        <TextField label="New access token" type="password" autoComplete="off" value={token} onValue={setToken} disabled={Boolean(reason)} />
        <Button type="submit" reason={reason} disabled={!token.trim()}>
          Replace token
        </Button>
      </form>
      <IssueSearch base={base} />
      <div>
        <Button variant="danger" onClick={() => setRemoving(true)} reason={reason}>
          Disconnect repository
        </Button>
      </div>
      <ConfirmDialog
        open={removing}
        title="Disconnect repository"
        message="Reports keep the issues already linked; no new issue is filed."
        confirmLabel="Disconnect"
        onClose={() => setRemoving(false)}
        onConfirm={async () => {
          const r = await api.delete<Message>(base)
          toast(r.message)
          onChange()
        }}
      />
    </div>
  )
}

function IssueSearch({ base }: { base: string }) {
  // The repository may be private: its issues are for members who may read reports.
  const reason = deniedReason('bugs.view')
  const [q, setQ] = useState('')
  const [issues, setIssues] = useState<GitIssue[]>()
  const { busy, error, onSubmit } = useAction(async () => {
    setIssues(undefined)
    setIssues(await api.get<GitIssue[]>(`${base}/issues`, { query: { q: q.trim() } }))
  })
  return (
    <div class="stack">
      <form class="row" role="search" onSubmit={onSubmit}>
        <TextField label="Search issues" type="search" value={q} onValue={setQ} disabled={Boolean(reason)} />
        <Button type="submit" busy={busy} reason={reason}>
          Search
        </Button>
      </form>
      {error && <p class="field-error" role="alert">{error}</p>}
      {issues && issues.length === 0 && <p class="muted">No matching issue.</p>}
      {issues && issues.length > 0 && (
        <ul aria-label="Matching issues">
          {issues.map((i) => (
            <li key={i.issue_number}>
              <ExternalLink href={i.issue_url}>
                #{i.issue_number} {i.issue_title}
              </ExternalLink>
              {i.state && <span class="muted small"> ({i.state})</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
