import { useState } from 'preact/hooks'
import { api } from '../api/client'
import { useApi } from '../api/resource'
import type { ApiToken, ApiTokenBody, CreatedApiToken } from '../api/types'
import { Async, Button, CodeBlock, DeleteConfirm, EmptyState, FormError, Section, Select, Table, TextField, formatDate, toast, useAction } from '../components'
import { projects } from '../session'

/** Account settings → API tokens: tokens for tools such as sentry-cli; created (shown once), listed, revoked. */
export function ApiTokens() {
  const tokens = useApi<ApiToken[]>('/auth/api-tokens')
  const [name, setName] = useState('')
  const [project, setProject] = useState('')
  const [created, setCreated] = useState<CreatedApiToken | null>(null)
  const [revoking, setRevoking] = useState<ApiToken | null>(null)
  const { busy, error, onSubmit } = useAction(async () => {
    const body: ApiTokenBody = { name: name.trim(), scopes: ['debug_files.upload'], project: project || null }
    setCreated(await api.post<CreatedApiToken>('/auth/api-tokens', body))
    setName('')
    toast('API token created')
    await tokens.reload()
  })
  return (
    <Section title="API tokens" description="For tools in your build pipeline: sentry-cli uploads symbols and source maps with a token that has the debug_files.upload scope (SENTRY_AUTH_TOKEN).">
      <div class="stack">
        <form class="stack" onSubmit={onSubmit}>
          <div class="grid-2">
            <TextField label="Token name" required maxLength={100} placeholder="CI symbols upload" value={name} onValue={setName} />
            <Select label="Acts on" value={project} onValue={setProject} options={[{ value: '', label: 'All projects I can see' }, ...(projects.value ?? []).map((p) => ({ value: p.slug, label: p.name }))]} />
          </div>
          <FormError error={error} />
          <div>
            <Button type="submit" variant="primary" busy={busy} disabled={!name.trim()}>
              Create token
            </Button>
          </div>
        </form>
        {created && (
          <div class="stack" role="status">
            <p style="margin:0">
              Copy the token <strong>{created.name}</strong> now: it is not shown again.
            </p>
            <CodeBlock label="New API token" code={created.token} />
          </div>
        )}
        <Async resource={tokens} empty={<EmptyState title="No API tokens">Create one for sentry-cli.</EmptyState>}>
          {(list) => (
            <Table<ApiToken>
              caption="API tokens"
              rows={list}
              rowKey={(t) => t.id}
              columns={[
                { key: 'name', header: 'Name', render: (t) => <strong>{t.name}</strong> },
                { key: 'hint', header: 'Token', render: (t) => <code>{t.hint}</code> },
                { key: 'scopes', header: 'Scopes', render: (t) => t.scopes.join(', ') },
                { key: 'project', header: 'Project', render: (t) => t.project ?? 'All' },
                { key: 'created', header: 'Created', render: (t) => formatDate(t.created_at) },
                { key: 'used', header: 'Last used', render: (t) => (t.last_used_at ? formatDate(t.last_used_at) : 'Never') },
                {
                  key: 'actions',
                  header: <span class="sr-only">Actions</span>,
                  render: (t) => (
                    <Button size="sm" variant="danger" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                      Revoke
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </Async>
      </div>
      <DeleteConfirm
        item={revoking}
        collection="/auth/api-tokens"
        title="Revoke this API token?"
        message={<>Tools using {revoking?.name} can no longer upload.</>}
        confirmLabel="Revoke token"
        deleted="API token revoked"
        onClose={() => setRevoking(null)}
        onDeleted={tokens.reload}
      />
    </Section>
  )
}
