import { useState } from 'preact/hooks'
import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Button, CodeBlock, DeleteConfirm, EmptyState, Section, Table, formatBytes, formatDate } from '../components'
import type { RouteProps } from '../router'
import { deniedReason } from '../session'
import { SettingsFrame } from '../settings/SettingsFrame'
import { type DebugFile, KIND_LABELS } from './debug-files-api'

/** The commands a build pipeline runs, with this project's slug and this server's address. */
function uploadCommands(slug: string): string {
  return [
    `export SENTRY_URL=${window.location.origin}`,
    'export SENTRY_AUTH_TOKEN=glb_…   # Your account → API tokens, scope debug_files.upload',
    `sentry-cli debug-files upload --org studio --project ${slug} path/to/symbols`,
    `sentry-cli sourcemaps inject dist && sentry-cli sourcemaps upload --org studio --project ${slug} --release 1.0.0 dist`,
  ].join('\n')
}

/** `/projects/:slug/settings/debug-files`: uploaded symbols and source maps, with what each did; delete. */
export function DebugFilesSettings({ params }: RouteProps) {
  const slug = params.slug!
  const files = useApi<DebugFile[]>(projectPath(slug, '/debug-files'))
  const [deleting, setDeleting] = useState<DebugFile | null>(null)
  const reason = deniedReason('project.settings')
  return (
    <SettingsFrame slug={slug} title="Debug files">
      <Section title="Debug files" description="Symbols (Breakpad .sym) and source maps uploaded with sentry-cli. Crashes are read with them: function names, files and lines instead of addresses.">
        <Async resource={files} empty={<EmptyState title="No debug files yet">Upload them from your build pipeline with the commands below.</EmptyState>}>
          {(list) => (
            <Table<DebugFile>
              caption="Debug files"
              rows={list}
              rowKey={(f) => f.id}
              columns={[
                {
                  key: 'name',
                  header: 'Name',
                  render: (f) => (
                    <div>
                      <strong>{f.name}</strong>
                      {f.detail && <div class="small muted">{f.detail}</div>}
                    </div>
                  ),
                },
                { key: 'kind', header: 'Kind', render: (f) => KIND_LABELS[f.kind] ?? f.kind },
                { key: 'arch', header: 'Architecture', render: (f) => f.arch ?? '—' },
                { key: 'debug_id', header: 'Debug ID', render: (f) => <code class="small break">{f.debug_id ?? '—'}</code> },
                { key: 'size', header: 'Size', render: (f) => formatBytes(f.size) },
                { key: 'uploaded', header: 'Uploaded', render: (f) => formatDate(f.uploaded_at) },
                { key: 'crashes', header: 'Crashes symbolicated', render: (f) => String(f.crashes_symbolicated) },
                {
                  key: 'actions',
                  header: <span class="sr-only">Actions</span>,
                  render: (f) => (
                    <Button size="sm" variant="danger" onClick={() => setDeleting(f)} reason={reason} aria-label={`Delete ${f.name}`}>
                      Delete
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </Async>
      </Section>
      <Section title="Upload from your build" description="sentry-cli 2.x or 3.x, pointed at this server with an API token. Any organization name works; the project is this one.">
        <CodeBlock label="Upload commands" code={uploadCommands(slug)} />
      </Section>
      <DeleteConfirm
        item={deleting}
        collection={projectPath(slug, '/debug-files')}
        title="Delete this debug file?"
        message={<>Crashes from {deleting?.name} are no longer symbolicated with it.</>}
        confirmLabel="Delete debug file"
        deleted="Debug file deleted"
        onClose={() => setDeleting(null)}
        onDeleted={files.reload}
      />
    </SettingsFrame>
  )
}
