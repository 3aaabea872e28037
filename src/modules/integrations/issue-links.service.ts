import type { AppDeps } from '../../app-deps'
import { badGateway, badRequest, notFound } from '../../http/errors'
import { liveReport } from '../reports/project-reports'
import { serializeReportForEvent } from '../reports/reports.service'
import { contextOf, saveLink } from './integrations.delivery'
import { createIntegrationsRepository, type IntegrationLink } from './integrations.repository'
import { PROVIDERS, providerInfo } from './providers/catalog'
import { ProviderError } from './providers/provider.types'

interface ProjectRef {
  id: string
  slug: string
  name: string
}

/** What a connection's target is, for the tracker list (a Sentry project, a tracker's team or list). */
const targetOf = (config: Record<string, unknown>) => String(config.project ?? config.team_id ?? config.list_id ?? config.project_id ?? config.project_gid ?? config.board_id ?? config.database_id ?? config.table ?? '')

const repo = (deps: Pick<AppDeps, 'db'>) => createIntegrationsRepository({ db: deps.db })

const linkView = (l: IntegrationLink) => ({
  id: l.id,
  integration_id: l.integrationId,
  provider: l.provider,
  provider_name: providerInfo(l.provider)?.name ?? l.provider,
  external_id: l.externalId,
  url: l.url,
  title: l.title,
  state: l.state,
  created_at: l.createdAt.toISOString(),
})

/**
 * `GET /bugs/{number}/issues`: the items linked to the report in other tools (tracker issues, the
 * crash tracker's issue) and the project's active tracker connections it can be filed through.
 */
export async function reportIssues(deps: Pick<AppDeps, 'db'>, projectId: string, rawNumber: string) {
  const report = await liveReport(deps.db, projectId, rawNumber)
  const [linked, active] = await Promise.all([repo(deps).linksOf(report.id), repo(deps).active(projectId)])
  const links = linked.map(linkView)
  const trackers = active
    .filter((c) => providerInfo(c.provider)?.kind === 'tracker')
    .map((c) => ({ id: c.id, provider: c.provider, provider_name: providerInfo(c.provider)!.name, name: c.name, target: targetOf(c.config) }))
  return { links, trackers }
}

/**
 * `POST /bugs/{number}/issues`: files the report in a tracker through one of the project's active
 * tracker connections now; filing again through the same connection returns the existing link
 * (`created` false). 502 carrying the tracker's answer when it refuses.
 */
export async function fileReport(deps: Pick<AppDeps, 'db' | 'config' | 'clock' | 'logger' | 'secrets'>, project: ProjectRef, rawNumber: string, integrationId: string) {
  const report = await liveReport(deps.db, project.id, rawNumber)
  const row = await repo(deps).find(project.id, integrationId)
  if (!row) throw notFound('integration not found')
  const provider = PROVIDERS[row.provider]
  if (!provider || provider.kind !== 'tracker') throw badRequest(`${providerInfo(row.provider)?.name ?? row.provider} is not an issue tracker`)
  if (!row.isActive) throw badRequest('the integration is paused; resume it to file reports')
  const existing = () => repo(deps).linkOf(row.id, report.id)
  const before = await existing()
  if (before) return { created: false, link: linkView(before) }
  let result
  try {
    // No earlier link to move: `before` was checked above.
    const payload = { project: { id: project.id, slug: project.slug, name: project.name }, report: serializeReportForEvent(report), at: deps.clock.now().getTime() }
    result = await provider.deliver(await contextOf(deps, row), { event: 'bug_created', action: 'file', payload }, null)
  } catch (err) {
    if (err instanceof ProviderError) throw badGateway(err.message)
    throw err
  }
  if (!result.link) throw badGateway(`${provider.name} answered without an issue`)
  const link = result.link
  await saveLink(deps, row, report.id, link, deps.clock.now())
  return { created: true, link: linkView((await existing())!) }
}
