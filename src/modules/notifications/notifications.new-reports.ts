import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import type { DomainEvent } from '../../events/domain-events'
import type { JobHandler } from '../../jobs/jobs.types'
import { MINUTE } from '../../lib/clock'
import { createProjectsRepository } from '../projects/projects.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { mailEach } from './notifications.fanout'
import { claimOnce } from './notifications.once'
import { recipientsFor } from './notifications.service'
import { reportPageUrl, reportListUrl } from '../reports/report-links'

export const NEW_REPORTS_KIND = 'notifications.new-reports'
/** Reports listed in one mail; the rest are counted. */
const LISTED = 20

export interface NewReportsPayload {
  projectId: string
  /** The minute's window, epoch ms [from, to). */
  from: number
  to: number
}

/**
 * Game clients file reports in bursts (a launch day, a crash on one GPU). Rather than a mail per
 * report, one job per project and minute mails each member once about that minute's reports.
 * Enqueued in the report's transaction; the idempotency key makes it one job per window. The insert
 * kind is bound once: it runs for every report a game files.
 */
export function newReportsEnqueuer(deps: Pick<AppDeps, 'db' | 'clock' | 'jobs'>): (event: DomainEvent) => Promise<void> {
  const enqueue = deps.jobs.prepare(deps.db, NEW_REPORTS_KIND)
  return async (event) => {
    const from = Math.floor(deps.clock.now().getTime() / MINUTE) * MINUTE
    await enqueue({
      payload: { projectId: event.projectId, from, to: from + MINUTE } satisfies NewReportsPayload,
      runAt: new Date(from + MINUTE),
      idempotencyKey: `new-reports:${event.projectId}:${from}`,
    })
  }
}

type Deps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'>

async function mailWindow(deps: Deps, tx: Query, p: NewReportsPayload): Promise<void> {
  const project = await createProjectsRepository({ db: deps.db }).byId(p.projectId)
  if (!project) return
  const { listed, total } = await createReportsRepository({ db: deps.db }).firstGameFiled(p.projectId, new Date(p.from), new Date(p.to), LISTED)
  if (listed.length === 0) return
  const to = await recipientsFor(deps, { accountId: project.accountId, projectId: project.id, userIds: 'all', preference: 'email_bug_created' })
  const tag = `[${project.name}]`
  if (total === 1) {
    const r = listed[0]!
    await mailEach(deps, tx, to, 'email_bug_created', () => ({
      subject: `${tag} New report #${r.reportNumber}: ${r.title}`,
      intro: `A player filed a new report in ${project.name}.`,
      body: [`#${r.reportNumber} ${r.title}`, `Priority: ${r.priority} · Category: ${r.category}${r.platform ? ` · Platform: ${r.platform}` : ''}`, r.description.slice(0, 500)],
      link: { label: 'Open the report', url: reportPageUrl(deps.config.publicUrl, project.slug, r.reportNumber) },
    }))
    return
  }
  await mailEach(deps, tx, to, 'email_bug_created', () => ({
    subject: `${tag} ${total} new reports`,
    intro: `Players filed ${total} new reports in ${project.name} within a minute.`,
    body: [...listed.map((r) => `#${r.reportNumber} ${r.title} (${r.priority}, ${r.category})`), ...(total > LISTED ? [`…and ${total - LISTED} more.`] : [])],
    link: { label: 'Open the reports', url: reportListUrl(deps.config.publicUrl, project.slug) },
  }))
}

/** The `notifications.new-reports` job: one mail per member for a project's minute of game-filed reports. */
export const newReportsHandler = (deps: Deps): JobHandler<NewReportsPayload> => ({
  kind: NEW_REPORTS_KIND,
  timeoutMs: 60_000,
  async run(payload, ctx) {
    await deps.db.write(async (tx) => {
      if (await claimOnce(deps, ctx.jobId, deps.clock.now())) await mailWindow(deps, tx, payload)
    })
  },
})
