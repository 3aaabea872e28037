/** Pure helpers of the integration screens: grouping, labels, plan gates, form → request body. */
import { featureOffReason } from '../billing/plan-words'
import type { Connection, CreateIntegrationBody, IntegrationEvent, Priority, ProviderKind, ProviderView, UpdateIntegrationBody } from './types'

export const KINDS: { kind: ProviderKind; title: string; description: string }[] = [
  { kind: 'chat', title: 'Chat', description: 'Post report events to a channel.' },
  { kind: 'alerting', title: 'Alerting', description: 'Open an incident per new report and resolve it with the report.' },
  { kind: 'tracker', title: 'Issue trackers', description: 'File reports as issues and move them when the status changes.' },
  { kind: 'crash_link', title: 'Crash link', description: 'Link the matching crash-tracker issue on each report.' },
  { kind: 'store', title: 'Stores', description: 'Import app-store reviews, reply to them, file bad ones as reports.' },
]

/** Providers in the order the server lists them, grouped by kind in KINDS order; empty kinds left out. */
export function groupByKind(providers: ProviderView[]): { kind: ProviderKind; title: string; description: string; providers: ProviderView[] }[] {
  return KINDS.map((k) => ({ ...k, providers: providers.filter((p) => p.kind === k.kind) })).filter((g) => g.providers.length > 0)
}

export const EVENT_LABELS: Record<IntegrationEvent, string> = {
  bug_created: 'Report created',
  bug_updated: 'Report updated',
  comment_added: 'Comment added',
  digest: 'Daily digest (09:00)',
  reviews: 'Import reviews',
  review_bugs: 'File 1- and 2-star reviews as reports',
}
export const eventLabel = (e: string) => EVENT_LABELS[e as IntegrationEvent] ?? e

export const PRIORITIES: Priority[] = ['low', 'medium', 'high', 'critical']

const PLAN_NAMES: Record<string, string> = { pro: 'Pro' }

/** A provider's plan badge ("Pro plan"), or null where plans are not shown (no billing). */
export const planBadge = (p: ProviderView, showPlans: boolean): string | null => (p.plan && showPlans ? `${PLAN_NAMES[p.plan] ?? p.plan} plan` : null)

/**
 * Why a provider cannot be connected here, or undefined when it can: not built on this server yet, or a plan
 * feature (Jira: `features.jira`) the account lacks (the plan named only with billing).
 */
export function unavailableReason(p: ProviderView, features: Record<string, boolean> | undefined, planName: string | undefined, billing: boolean): string | undefined {
  if (p.plan && features && features[p.key] === false) return featureOffReason({ billing, feature: p.name, plan: PLAN_NAMES[p.plan] ?? p.plan, current: planName })
  if (!p.available) return `${p.name} is not available on this server yet.`
  return undefined
}

/** The config field a target picked from `targets` fills (its description says "from targets"), if any. */
export function targetField(p: ProviderView): string | undefined {
  return Object.keys(p.config).find((k) => /from targets/i.test(p.config[k]!))
}

/** A config key as a label: `package_name` → "Package name", `project_gid` → "Project gid". */
export const fieldLabel = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ')

/** Whether a config field is optional (its description starts with "optional"). */
export const isOptionalField = (description: string) => /^optional/i.test(description.trim())

/** Config fields with a choice of values ("us or eu …") → their choices. */
export function fieldChoices(description: string): string[] | undefined {
  const m = /^([a-z]{2,3}) or ([a-z]{2,3})\b/.exec(description.trim())
  return m ? [m[1]!, m[2]!] : undefined
}

export type ConnectForm = { name: string; secret: string; events: string[]; minPriority: Priority; config: Record<string, string> }

/** The form's state as the create body; empty config fields left out, `status_map` parsed as JSON (throws a sentence). */
export function connectBody(p: ProviderView, f: ConnectForm): CreateIntegrationBody {
  const config: Record<string, unknown> = {}
  for (const [k, raw] of Object.entries(f.config)) {
    const v = raw.trim()
    if (!v || !(k in p.config)) continue
    if (k === 'status_map') {
      try {
        config[k] = JSON.parse(v)
      } catch {
        throw new Error('status_map must be JSON, e.g. {"resolved": "Done"}')
      }
    } else config[k] = v
  }
  return {
    secret: f.secret.trim(),
    ...(f.name.trim() && { name: f.name.trim() }),
    event_types: p.events.filter((e) => f.events.includes(e)),
    min_priority: f.minPriority,
    ...(Object.keys(config).length > 0 && { config }),
  }
}

/** The first form state of a provider: its default events checked, its default minimum priority. */
export function initialForm(p: ProviderView): ConnectForm {
  return { name: '', secret: '', events: [...p.default_events], minPriority: p.default_min_priority, config: Object.fromEntries(Object.keys(p.config).map((k) => [k, ''])) }
}

/** The edit form of a saved connection: its name, events, priority and config (status_map as JSON); the secret empty (kept). */
export function formFromConnection(p: ProviderView, c: Connection): ConnectForm {
  const config = Object.fromEntries(
    Object.keys(p.config).map((k) => {
      const v = c.config[k]
      return [k, v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v)]
    }),
  )
  return { name: c.name, secret: '', events: [...c.event_types], minPriority: c.min_priority, config }
}

/** The PATCH body of an edit: only what changed; a new secret only when one was typed (throws a sentence for bad JSON). */
export function updateBody(p: ProviderView, f: ConnectForm, c: Connection): UpdateIntegrationBody {
  const next = connectBody(p, { ...f, secret: f.secret || 'unchanged' })
  const body: UpdateIntegrationBody = {}
  if (f.secret.trim()) body.secret = f.secret.trim()
  if ((next.name ?? p.name) !== c.name) body.name = next.name ?? p.name
  if (JSON.stringify(next.event_types) !== JSON.stringify(p.events.filter((e) => c.event_types.includes(e)))) body.event_types = next.event_types
  if (next.min_priority !== c.min_priority) body.min_priority = next.min_priority
  const config = next.config ?? {}
  const before = Object.fromEntries(Object.keys(p.config).filter((k) => c.config[k] !== undefined && c.config[k] !== null && c.config[k] !== '').map((k) => [k, c.config[k]]))
  if (JSON.stringify(config, Object.keys(config).sort()) !== JSON.stringify(before, Object.keys(before).sort())) body.config = config
  return body
}

/** Characters a store allows in a reply: Google Play 350, the App Store 5970. */
export function replyLimit(provider: string): number | undefined {
  if (provider === 'google_play') return 350
  if (provider === 'app_store') return 5970
  return undefined
}

/** A delivery status as a badge tone. */
export function statusTone(status: string): 'success' | 'danger' | 'warning' | 'info' | 'neutral' {
  if (status === 'succeeded' || status === 'delivered' || status === 'success') return 'success'
  if (status === 'failed' || status === 'dead') return 'danger'
  if (status === 'retrying' || status === 'held' || status === 'paused') return 'warning'
  if (status === 'pending' || status === 'queued') return 'info'
  return 'neutral'
}

/** A 0-1 share as a whole percent, or a dash. */
export const percent = (share: number | null | undefined) => (share === null || share === undefined ? '–' : `${Math.round(share * 100)}%`)
