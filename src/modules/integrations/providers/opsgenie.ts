import { newId } from '../../../lib/ids'
import { badRequest } from '../../../http/errors'
import { alertingActions, incidentFacts, incidentKey } from './alerting'
import { callProvider, expectOk, oneOf, regionBase } from './provider-http'
import type { Provider, ProviderContext } from './provider.types'

const NAME = 'Opsgenie'
const REGIONS = { us: 'https://api.opsgenie.com', eu: 'https://api.eu.opsgenie.com' }
const PRIORITY = { critical: 'P1', high: 'P2', medium: 'P3', low: 'P4' } as const

/** One Alert API call with `Authorization: GenieKey …`; Opsgenie answers 202 `{result, took, requestId}`. */
async function alertApi(ctx: ProviderContext, path: string, body: Record<string, unknown>) {
  const url = `${regionBase(ctx, 'opsgenie', REGIONS, ctx.config.region)}${path}`
  const a = expectOk(NAME, await callProvider(ctx, NAME, url, { method: 'POST', headers: { Authorization: `GenieKey ${ctx.secret}` }, body: JSON.stringify(body) }))
  return { statusCode: a.status, response: a.text }
}

const closeAlert = (ctx: ProviderContext, alias: string, note: string) =>
  alertApi(ctx, `/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`, { source: 'Glitchbox', note })

/** Opsgenie Alert API: an alert per new report with the report's alias, closed when the report ends. */
export const opsgenie: Provider = {
  key: 'opsgenie',
  name: NAME,
  kind: 'alerting',
  events: ['bug_created', 'bug_updated'],
  defaultEvents: ['bug_created', 'bug_updated'],
  defaultMinPriority: 'high',
  credential: {
    label: 'API integration key',
    help: 'In Opsgenie, open Settings (or a team), Integrations, add an "API" integration with create and update access, and copy its API key.',
    url: 'https://support.atlassian.com/opsgenie/docs/create-a-default-api-integration/',
  },
  config: { region: 'us or eu (the Opsgenie account region; default us)' },
  async validate(ctx, config) {
    if (!/^[A-Za-z0-9-]{20,64}$/.test(ctx.secret.trim())) throw badRequest('secret must be an Opsgenie API integration key')
    return { region: oneOf(config, 'region', ['us', 'eu']) }
  },
  async test(ctx, project) {
    // Checks the key can create and close: a P5 test alert, closed at once.
    const alias = `glitchbox-test-${newId()}`
    await alertApi(ctx, '/v2/alerts', { message: `Glitchbox test alert for ${project.name}`.slice(0, 130), alias, priority: 'P5', source: 'Glitchbox' })
    await closeAlert(ctx, alias, 'Test alert, closed at once')
    return 'Opsgenie accepted a test alert (created and closed)'
  },
  actionsFor: alertingActions,
  async deliver(ctx, input) {
    const alias = incidentKey(input.payload.report?.id)
    if (input.action === 'resolve') return closeAlert(ctx, alias, `The report was ${String(input.payload.changes?.status?.[1] ?? 'resolved')} in Glitchbox`)
    const f = incidentFacts(input.payload, ctx.deps.config.publicUrl)
    return alertApi(ctx, '/v2/alerts', {
      message: f.summary.slice(0, 130),
      alias,
      description: `${f.description.slice(0, 14_000)}\n\n${f.url}`,
      priority: PRIORITY[f.priority],
      source: 'Glitchbox',
      entity: input.payload.project.name,
      tags: ['glitchbox', f.category].filter(Boolean),
      details: Object.fromEntries(Object.entries({ ...f.details, url: f.url }).map(([k, v]) => [k, String(v ?? '')])),
    })
  },
}
