import { badRequest } from '../../../http/errors'
import { callProvider, expectOk, oneOf, regionBase, requiredString } from './provider-http'
import type { Provider, ProviderContext, Target } from './provider.types'

const NAME = 'Sentry'
const REGIONS = { us: 'https://us.sentry.io', de: 'https://de.sentry.io' }

/** `config.project` as `<org-slug>:<project-id>` (what targets returns). */
function projectRef(config: Record<string, unknown>) {
  const [org, id] = requiredString(config, 'project', { re: /^[a-z0-9][a-z0-9_-]*:\d+$/i, hint: '<org-slug>:<project-id> as the targets route lists it' }).split(':') as [string, string]
  return { org, id }
}

/** `GET /api/0/…` with the auth token as a bearer token. */
async function sentryGet(ctx: ProviderContext, path: string) {
  const url = `${regionBase(ctx, 'sentry', REGIONS, ctx.config.region)}/api/0${path}`
  return expectOk(NAME, await callProvider(ctx, NAME, url, { method: 'GET', headers: { Authorization: `Bearer ${ctx.secret}` } })).json
}

/** The project's issues matching a query, most frequent first. */
const searchIssues = (ctx: ProviderContext, query: string, limit: number) => {
  const { org, id } = projectRef(ctx.config)
  const qs = new URLSearchParams({ project: id, query, limit: String(limit), sort: 'freq' })
  return sentryGet(ctx, `/organizations/${encodeURIComponent(org)}/issues/?${qs}`)
}

/**
 * Sentry as a crash link: for a new report with an error type, the project's Sentry issue of that
 * exception type is looked up and linked on the report (GET /bugs/{number}/issues shows it).
 */
export const sentry: Provider = {
  key: 'sentry',
  name: NAME,
  kind: 'crash_link',
  events: ['bug_created'],
  defaultEvents: ['bug_created'],
  defaultMinPriority: 'low',
  credential: {
    label: 'Auth token',
    help: 'In Sentry, open Settings, Auth Tokens (or an internal integration) and create a token with project:read and event:read; then pick the project from the list.',
    url: 'https://docs.sentry.io/account/auth-tokens/',
  },
  config: { project: '<org-slug>:<project-id>, picked from targets', region: 'us or de (the organization data region; default us)' },
  async validate(ctx, config) {
    if (ctx.secret.trim().length < 20) throw badRequest('secret must be a Sentry auth token')
    const { org, id } = projectRef(config)
    return { project: `${org}:${id}`, region: oneOf(config, 'region', ['us', 'de']) }
  },
  async targets(ctx) {
    const projects = (await sentryGet(ctx, '/projects/')) as { id: string; slug: string; name?: string; organization?: { slug: string; name?: string } }[]
    return (Array.isArray(projects) ? projects : [])
      .filter((p) => p.organization?.slug)
      .map((p): Target => ({ id: `${p.organization!.slug}:${p.id}`, name: p.name || p.slug, group: p.organization!.name || p.organization!.slug }))
  },
  async test(ctx) {
    await searchIssues(ctx, 'is:unresolved', 1)
    return 'Sentry accepted the token and the project'
  },
  actionsFor: (event) => (event.type === 'bug_created' && event.report?.error_type ? ['link'] : []),
  async deliver(ctx, input) {
    const type = String(input.payload.report?.error_type ?? '')
    const issues = (await searchIssues(ctx, `error.type:"${type.replace(/["\\]/g, '')}"`, 5)) as { shortId: string; title: string; permalink: string; metadata?: { type?: string } }[]
    const match = Array.isArray(issues) ? (issues.find((i) => i.metadata?.type === type) ?? issues[0]) : undefined
    if (!match) return { statusCode: 200, response: `no Sentry issue with error type ${type}` }
    return { statusCode: 200, response: `linked ${match.shortId}`, link: { externalId: match.shortId, url: match.permalink, title: match.title } }
  },
}
