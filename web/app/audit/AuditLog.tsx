import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { AuditEntry, AuditPage } from '../api/types'
import { Async, EmptyState, Pager, Section, Spinner, Table, formatDate, pageCount } from '../components'
import type { RouteProps } from '../router'
import { can, permissions } from '../session'
import { SettingsFrame } from '../settings/SettingsFrame'

/** "project.created" → "Project created". */
export function actionLabel(action: string): string {
  const s = action.replace(/[._]/g, ' ')
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** `{name: 'x', fields: ['a','b']}` → `name: x · fields: a, b`. */
export function detailsText(details: Record<string, unknown> | null): string {
  if (!details) return ''
  return Object.entries(details)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${Array.isArray(v) ? v.join(', ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join(' · ')
}

/** `/projects/:slug/settings/audit?page=N`: settings, label, member and integration changes, 50 a page. */
export function AuditLog({ params, query }: RouteProps) {
  const slug = params.slug!
  const page = Math.max(1, Number(query.page) || 1)
  const allowed = can('project.settings')
  const log = useApi<AuditPage>(allowed ? projectPath(slug, '/audit-log') : null, { query: { page } })
  return (
    <SettingsFrame slug={slug} title="Audit log">
      <Section title="Audit log" description="Who changed settings, labels, members and integrations, newest first.">
        {permissions.value === undefined ? (
          <Spinner />
        ) : !allowed ? (
          <EmptyState title="Not available to you">The audit log needs the “Project settings” permission: ask an owner or admin of the account.</EmptyState>
        ) : (
          <Async resource={log} empty={<EmptyState title="Nothing recorded yet" />} isEmpty={(d) => d.entries.length === 0}>
            {(d) => {
              const pages = pageCount(d.total, d.per_page)
              return (
                <>
                  <Table<AuditEntry>
                    caption={`Audit log, page ${d.page} of ${pages}`}
                    rows={d.entries}
                    rowKey={(e) => String(e.id)}
                    columns={[
                      { key: 'when', header: 'When', render: (e) => <span class="nowrap">{formatDate(e.created_at)}</span> },
                      { key: 'who', header: 'Who', render: (e) => e.actor_name ?? 'System' },
                      { key: 'what', header: 'Action', render: (e) => actionLabel(e.action) },
                      { key: 'details', header: 'Details', render: (e) => <span class="small muted break">{detailsText(e.details)}</span> },
                    ]}
                  />
                  <Pager label="Audit log pages" page={d.page} pages={pages} count={`${d.total} entries`} />
                </>
              )
            }}
          </Async>
        )}
      </Section>
    </SettingsFrame>
  )
}
