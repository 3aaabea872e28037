import { useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Button, EmptyState, ExternalLink, FormError, Page, Section, Table, formatDate, toast, useAction } from '../components'
import type { RouteProps } from '../router'
import { deniedReason } from '../session'
import type { ImportedReport, ImportResult } from './types'

/** `/projects/:slug/import`: upload a CSV (ours, GitHub's or Jira's export) or our JSON, see the result and the imported reports. */
export function ImportPage({ params }: RouteProps) {
  const slug = params.slug!
  const imported = useApi<ImportedReport[]>(projectPath(slug, '/imports'))
  const [file, setFile] = useState<File | null>(null)
  const [result, setResult] = useState<ImportResult | null>(null)
  const reason = deniedReason('bugs.create')
  const { busy, error, run } = useAction(async (upload: File) => {
    setResult(null)
    const text = await upload.text()
    const json = upload.name.toLowerCase().endsWith('.json')
    const r = await api.post<ImportResult>(projectPath(slug, '/import'), json ? JSON.parse(text) : new Blob([text], { type: 'text/csv' }))
    setResult(r)
    toast(`${r.created} report${r.created === 1 ? '' : 's'} imported`)
    await imported.reload()
  })
  const submit = (e: Event) => {
    e.preventDefault()
    if (file) void run(file)
  }
  return (
    <Page title="Import reports">
      <Section title="Upload" description="A CSV exported from Glitchbox, GitHub or Jira, or a JSON file with a bugs list. Up to 1,000 reports a file; rows whose external id was imported before are skipped, so importing the same export twice creates nothing new.">
        <form class="row" onSubmit={submit}>
          <label class="field">
            <span>Export file</span>
            <input type="file" accept=".csv,.json,text/csv,application/json" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} disabled={Boolean(reason)} />
          </label>
          <Button type="submit" variant="primary" busy={busy} reason={reason} disabled={!file}>Import</Button>
        </form>
        <FormError error={error} />
        {result && (
          <div role="status">
            <p>
              Created {result.created}, skipped {result.skipped} already imported, {result.errors.length} with errors.
            </p>
            {result.errors.length > 0 && (
              <ul class="small">
                {result.errors.slice(0, 50).map((e) => (
                  <li key={e.index}>Row {e.index + 1}: {e.error}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </Section>
      <Section title="Imported reports">
        <Async resource={imported} empty={<EmptyState title="Nothing imported yet" />}>
          {(rows) => (
            <Table<ImportedReport>
              caption="Imported reports"
              rows={rows}
              rowKey={(r) => String(r.report_number)}
              columns={[
                { key: 'n', header: 'Report', render: (r) => <a href={`/projects/${encodeURIComponent(slug)}/reports/${r.report_number}`}>#{r.report_number} {r.title}</a> },
                { key: 'ext', header: 'From', render: (r) => (r.external_url ? <ExternalLink href={r.external_url}>{r.external_id ?? r.external_url}</ExternalLink> : (r.external_id ?? '–')) },
                { key: 'at', header: 'Imported', render: (r) => formatDate(r.imported_at) },
              ]}
            />
          )}
        </Async>
      </Section>
    </Page>
  )
}
