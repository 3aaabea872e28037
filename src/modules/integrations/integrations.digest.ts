import type { AppDeps } from '../../app-deps'
import type { Schedule } from '../../jobs/jobs.types'
import { DAY } from '../../lib/clock'
import { derivedId } from '../../lib/ids'
import { createProjectsRepository, type ProjectCard } from '../projects/projects.repository'
import { reportPageUrl } from '../reports/report-links'
import { createReportsRepository } from '../reports/reports.repository'
import { queueDelivery } from './integrations.delivery'
import { createIntegrationsRepository } from './integrations.repository'
import type { DeliveryPayload } from './providers/provider.types'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'jobs' | 'config'>
type Summary = NonNullable<DeliveryPayload['summary']>

/** A project's last day: new reports by priority, the most urgent of them, and how many are open now. */
async function summaryOf(deps: Deps, project: ProjectCard, since: Date): Promise<Summary> {
  const { byPriority, open, top } = await createReportsRepository({ db: deps.db }).daySummary(project.id, since, 5)
  const total = byPriority.reduce((s, r) => s + r.n, 0)
  const lines = [
    `${total} new report${total === 1 ? '' : 's'} in the last 24 hours${total ? ` (${byPriority.map((r) => `${r.n} ${r.priority}`).join(', ')})` : ''}; ${open} open or in progress.`,
    ...top.map((r) => `• #${r.number} [${r.priority}] ${r.title} — ${reportPageUrl(deps.config.publicUrl, project.slug, r.number)}`),
  ]
  return { title: `Daily digest for ${project.name}`, lines, link: `${deps.config.publicUrl}/projects/${project.slug}/reports` }
}

/** Enqueues today's digest post for every active chat connection subscribed to `digest` (once per connection and day). */
export async function enqueueDigests(deps: Deps): Promise<number> {
  const now = deps.clock.now()
  const day = now.toISOString().slice(0, 10)
  const rows = await createIntegrationsRepository({ db: deps.db }).subscribedTo('digest')
  const projects = new Map((await createProjectsRepository({ db: deps.db }).cardsOf([...new Set(rows.map((r) => r.projectId))])).map((p) => [p.id, p]))
  // Connections of one project post the same summary: it is read once per project.
  const summaries = new Map<string, Summary>()
  for (const r of rows) {
    const project = projects.get(r.projectId)
    if (!project) continue
    let summary = summaries.get(project.id)
    if (!summary) summaries.set(project.id, (summary = await summaryOf(deps, project, new Date(now.getTime() - DAY))))
    await queueDelivery(deps, { id: derivedId(`digest:${day}`, r.id), integrationId: r.id, event: 'digest', action: 'post', reportId: null, payload: { project, summary, at: now.getTime() } })
  }
  return rows.length
}

/** 09:00 server time every day. */
export const digestSchedule = (deps: Deps): Schedule => ({ name: 'integrations.digest', pattern: '0 9 * * *', run: async () => void (await enqueueDigests(deps)) })
