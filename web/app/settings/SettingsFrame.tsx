import type { ComponentChildren } from 'preact'
import { useEffect } from 'preact/hooks'
import { NavTabs, Page } from '../components'
import { navigate, type RouteProps } from '../router'
import { projects } from '../session'

export const SETTINGS_TABS = [
  { key: 'general', label: 'General' },
  { key: 'public-pages', label: 'Public pages' },
  { key: 'changelog', label: 'Changelog' },
  { key: 'workflow', label: 'Workflow' },
  { key: 'webhooks', label: 'Webhooks' },
  { key: 'integrations', label: 'Integrations' },
  { key: 'debug-files', label: 'Debug files' },
  { key: 'notifications', label: 'Notifications' },
  { key: 'audit', label: 'Audit log' },
] as const

/** The frame of a project's settings: the project's name, tabs as links, the section below. */
export function SettingsFrame({ slug, title, children }: { slug: string; title: string; children: ComponentChildren }) {
  const name = projects.value?.find((p) => p.slug === slug)?.name ?? slug
  const base = `/projects/${encodeURIComponent(slug)}/settings`
  return (
    <Page title={`${title}`} subtitle={<>Settings of {name}</>}>
      <NavTabs label="Settings sections" items={SETTINGS_TABS.map((t) => ({ href: `${base}/${t.key}`, label: t.label }))} />
      {children}
    </Page>
  )
}

/** `/projects/:slug/settings` → the general tab. */
export function SettingsIndex({ params }: RouteProps) {
  useEffect(() => navigate(`/projects/${encodeURIComponent(params.slug!)}/settings/general`, { replace: true }), [params.slug])
  return null
}
