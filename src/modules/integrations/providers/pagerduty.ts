import { newId } from '../../../lib/ids'
import { badRequest } from '../../../http/errors'
import { alertingActions, incidentFacts, incidentKey } from './alerting'
import { callProvider, expectOk, oneOf, regionBase } from './provider-http'
import type { Provider, ProviderContext } from './provider.types'

const NAME = 'PagerDuty'
const REGIONS = { us: 'https://events.pagerduty.com', eu: 'https://events.eu.pagerduty.com' }
const SEVERITY = { critical: 'critical', high: 'error', medium: 'warning', low: 'info' } as const

/** Sends one event to the Events API v2 (`POST /v2/enqueue`); it answers 202 `{status, message, dedup_key}`. */
async function enqueue(ctx: ProviderContext, event: Record<string, unknown>) {
  const url = `${regionBase(ctx, 'pagerduty', REGIONS, ctx.config.region)}/v2/enqueue`
  const a = expectOk(NAME, await callProvider(ctx, NAME, url, { method: 'POST', body: JSON.stringify({ routing_key: ctx.secret, ...event }) }))
  return { statusCode: a.status, response: a.text }
}

/** PagerDuty Events API v2: a `trigger` per new report with the report's dedup key, a `resolve` when the report ends. */
export const pagerduty: Provider = {
  key: 'pagerduty',
  name: NAME,
  kind: 'alerting',
  events: ['bug_created', 'bug_updated'],
  defaultEvents: ['bug_created', 'bug_updated'],
  defaultMinPriority: 'high',
  credential: {
    label: 'Integration key (Events API v2)',
    help: 'In PagerDuty, open the service, Integrations, add an "Events API V2" integration and copy its Integration Key.',
    url: 'https://support.pagerduty.com/main/docs/services-and-integrations',
  },
  config: { region: 'us or eu (the PagerDuty service region; default us)' },
  async validate(ctx, config) {
    if (!/^[A-Za-z0-9]{20,64}$/.test(ctx.secret.trim())) throw badRequest('secret must be an Events API v2 integration key (32 letters and digits)')
    return { region: oneOf(config, 'region', ['us', 'eu']) }
  },
  async test(ctx, project) {
    // The Events API has no read call: a test incident is triggered at `info` severity and resolved at once.
    const dedup_key = `glitchbox-test-${newId()}`
    await enqueue(ctx, {
      event_action: 'trigger',
      dedup_key,
      payload: { summary: `Glitchbox test event for ${project.name} (resolved at once)`, source: 'glitchbox', severity: 'info', component: project.slug },
    })
    await enqueue(ctx, { event_action: 'resolve', dedup_key })
    return 'PagerDuty accepted a test event (triggered and resolved)'
  },
  actionsFor: alertingActions,
  async deliver(ctx, input) {
    const dedup_key = incidentKey(input.payload.report?.id)
    if (input.action === 'resolve') return enqueue(ctx, { event_action: 'resolve', dedup_key })
    const f = incidentFacts(input.payload, ctx.deps.config.publicUrl)
    return enqueue(ctx, {
      event_action: 'trigger',
      dedup_key,
      payload: {
        summary: f.summary.slice(0, 1024),
        source: new URL(ctx.deps.config.publicUrl).host,
        severity: SEVERITY[f.priority],
        timestamp: new Date(input.payload.at).toISOString(),
        component: input.payload.project.slug,
        group: f.category,
        ...(f.errorType && { class: f.errorType }),
        custom_details: f.details,
      },
      client: 'Glitchbox',
      client_url: f.url,
      links: [{ href: f.url, text: 'Open the report in Glitchbox' }],
    })
  },
}
