import { and, asc, count, eq, gte, isNull, lt } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Tx } from '../../db/client'
import type { DomainEvent } from '../../events/domain-events'
import type { JobHandler } from '../../jobs/jobs.types'
import { MINUTE } from '../../lib/clock'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'
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
 * is prepared once: it runs for every report a game files.
 */
export function newReportsEnqueuer(deps: Pick<AppDeps, 'db' | 'clock' | 'jobs'>): (event: DomainEvent) => void {
  const enqueue = deps.jobs.prepare(deps.db, NEW_REPORTS_KIND)
  return (event) => {
    const from = Math.floor(deps.clock.now().getTime() / MINUTE) * MINUTE
    enqueue({
      payload: { projectId: event.projectId, from, to: from + MINUTE } satisfies NewReportsPayload,
      runAt: new Date(from + MINUTE),
      idempotencyKey: `new-reports:${event.projectId}:${from}`,
    })
  }
}

type Deps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'>

function mailWindow(deps: Deps, tx: Tx, p: NewReportsPayload): void {
  const project = tx.select().from(projects).where(eq(projects.id, p.projectId)).get()
  if (!project) return
  const inWindow = and(
    eq(reports.projectId, p.projectId),
    isNull(reports.createdBy),
    isNull(reports.deletedAt),
    gte(reports.createdAt, new Date(p.from)),
    lt(reports.createdAt, new Date(p.to)),
  )
  const listed = tx.select().from(reports).where(inWindow).orderBy(asc(reports.reportNumber)).limit(LISTED).all()
  if (listed.length === 0) return
  const [{ total }] = tx.select({ total: count() }).from(reports).where(inWindow).all() as [{ total: number }]
  const to = recipientsFor(tx, { accountId: project.accountId, projectId: project.id, userIds: 'all', preference: 'email_bug_created' })
  const tag = `[${project.name}]`
  if (total === 1) {
    const r = listed[0]!
    mailEach(deps, tx, to, 'email_bug_created', () => ({
      subject: `${tag} New report #${r.reportNumber}: ${r.title}`,
      intro: `A player filed a new report in ${project.name}.`,
      body: [`#${r.reportNumber} ${r.title}`, `Priority: ${r.priority} · Category: ${r.category}${r.platform ? ` · Platform: ${r.platform}` : ''}`, r.description.slice(0, 500)],
      link: { label: 'Open the report', url: reportPageUrl(deps.config.publicUrl, project.slug, r.reportNumber) },
    }))
    return
  }
  mailEach(deps, tx, to, 'email_bug_created', () => ({
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
    deps.db.transaction((tx) => {
      if (claimOnce(tx, ctx.jobId, deps.clock.now())) mailWindow(deps, tx, payload)
    })
  },
})
