import './integrations.css'
import { useState } from 'preact/hooks'
import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { Account } from '../api/types'
import { Async, Badge, Button, ButtonLink, EmptyState, ExternalLink, Section } from '../components'
import type { RouteProps } from '../router'
import { deniedReason, showPlans } from '../session'
import { SettingsFrame } from '../settings/SettingsFrame'
import { ChatChannels } from './ChatChannels'
import { DiscordSection } from './Discord'
import { ConnectDialog } from './ConnectDialog'
import { Connections } from './Connections'
import { GitSection } from './GitSection'
import { eventLabel, groupByKind, planBadge, unavailableReason } from './helpers'
import { SteamSection } from './Steam'
import type { Connection, ProviderView } from './types'

/**
 * `/projects/:slug/integrations`: the project's connections (test, pause/resume, deliveries, delete), the providers
 * grouped by kind with the credential each needs and where to get it, then chat channels, Discord /report, git and Steam.
 */
export function IntegrationsPage({ params }: RouteProps) {
  const slug = params.slug!
  const providers = useApi<ProviderView[]>('/integrations/providers')
  const connections = useApi<Connection[]>(projectPath(slug, '/integrations'))
  const account = useApi<Account>('/account')
  const [connecting, setConnecting] = useState<ProviderView | null>(null)
  const [editing, setEditing] = useState<Connection | null>(null)
  const reason = deniedReason('project.integrations')
  const acc = account.data.value
  return (
    <SettingsFrame slug={slug} title="Integrations">
      {reason && (
        <p class="integrations-note" role="note">
          {reason} You can see the connections but not change them.
        </p>
      )}
      <Section title="Connections" description="Failed deliveries are retried after 1, 5, 25 and 125 minutes; a paused connection holds its retries until it is resumed.">
        <Connections slug={slug} connections={connections} reason={reason} onEdit={setEditing} />
      </Section>
      <Async resource={providers} empty={<EmptyState title="No providers on this server" />}>
        {(list) => (
          <>
            {groupByKind(list).map((g) => (
              <Section
                key={g.kind}
                title={g.title}
                description={g.description}
                actions={g.kind === 'store' ? <ButtonLink href={projectPath(slug, '/store-reviews')}>Store reviews</ButtonLink> : undefined}
              >
                <ul class="provider-list">
                  {g.providers.map((p) => {
                    const own = unavailableReason(p, acc?.features, acc?.plan.name, showPlans.value)
                    return <ProviderItem key={p.key} p={p} reason={reason ?? own} note={own} onConnect={() => setConnecting(p)} />
                  })}
                </ul>
              </Section>
            ))}
          </>
        )}
      </Async>
      <ChatChannels slug={slug} reason={reason} />
      <DiscordSection slug={slug} reason={reason} />
      <GitSection slug={slug} reason={reason} />
      <SteamSection slug={slug} reason={reason} />
      <ConnectDialog slug={slug} provider={connecting} onClose={() => setConnecting(null)} onCreated={() => void connections.reload()} />
      <ConnectDialog
        slug={slug}
        provider={(editing && providers.data.value?.find((p) => p.key === editing.provider)) || null}
        connection={editing}
        onClose={() => setEditing(null)}
        onCreated={() => void connections.reload()}
      />
    </SettingsFrame>
  )
}

/** One provider: what it needs and where to get it, its events, and its Connect button (`note`: why this provider cannot be connected). */
function ProviderItem({ p, reason, note, onConnect }: { p: ProviderView; reason?: string; note?: string; onConnect: () => void }) {
  const badge = planBadge(p, showPlans.value)
  return (
    <li class="provider" aria-label={p.name}>
      <div class="provider-text">
        <div class="row">
          <strong>{p.name}</strong>
          {badge && <Badge tone="info">{badge}</Badge>}
          {!p.available && <Badge>coming soon</Badge>}
        </div>
        <p class="small">
          Needs: <strong>{p.credential.label}</strong>.{' '}
          <ExternalLink href={p.credential.url}>
            Where to get it<span class="sr-only"> (the {p.name} {p.credential.label})</span>
          </ExternalLink>
        </p>
        <p class="muted small">Events: {p.events.map(eventLabel).join(', ')}</p>
        {note && <p class="muted small">{note}</p>}
      </div>
      <Button onClick={onConnect} reason={reason}>
        Connect {p.name}
      </Button>
    </li>
  )
}
