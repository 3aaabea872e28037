import { and, eq, inArray, isNull, lte } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Tx } from '../../db/client'
import type { Schedule } from '../../jobs/jobs.types'
import { accountMembers } from '../accounts/accounts.table'
import { recordActivity } from '../activity/activity.service'
import { mailEach } from '../notifications/notifications.fanout'
import { recipientsFor } from '../notifications/notifications.service'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'
import { reportSla } from './workflow.table'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'>
/** Clocks handled per run and part; a backlog is worked off over the next minutes. */
const BATCH = 500

/** Notifies a breach once: the assignee, or the account's owner and admins when nobody is assigned. */
function notifyBreach(deps: Deps, tx: Tx, reportId: string, part: 'response' | 'resolve', due: Date) {
  const r = tx
    .select({ number: reports.reportNumber, title: reports.title, assignedTo: reports.assignedTo, deletedAt: reports.deletedAt, projectId: reports.projectId, slug: projects.slug, projectName: projects.name, accountId: projects.accountId })
    .from(reports)
    .innerJoin(projects, eq(projects.id, reports.projectId))
    .where(eq(reports.id, reportId))
    .get()
  if (!r || r.deletedAt) return
  recordActivity(tx, deps.clock.now(), [{ projectId: r.projectId, reportId, actorId: null, action: 'sla_breached', field: part, newValue: due.toISOString() }])
  const admins = () => tx.select({ id: accountMembers.userId }).from(accountMembers).where(and(eq(accountMembers.accountId, r.accountId), inArray(accountMembers.role, ['owner', 'admin']))).all().map((m) => m.id)
  const to = r.assignedTo
    ? recipientsFor(tx, { accountId: r.accountId, userIds: [r.assignedTo], preference: 'email_bug_assigned' })
    : recipientsFor(tx, { accountId: r.accountId, userIds: admins(), preference: 'email_bug_status' })
  const what = part === 'response' ? 'a first response' : 'resolution'
  mailEach(deps, tx, to, r.assignedTo ? 'email_bug_assigned' : 'email_bug_status', () => ({
    subject: `[${r.projectName}] SLA breached: #${r.number} ${r.title}`,
    intro: `#${r.number} ${r.title} missed its SLA for ${what}, due ${due.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    body: [],
    link: { label: 'Open the report', url: `${deps.config.publicUrl}/projects/${r.slug}/reports/${r.number}` },
  }))
}

/**
 * Marks the clocks that ran past their due time as breached and notifies each once. Reads only the
 * partial indexes of running clocks up to now (never the reports): cheap whatever the project's size.
 */
export function markSlaBreaches(deps: Deps): number {
  const now = deps.clock.now()
  return deps.db.transaction((tx) => {
    const response = tx
      .select({ reportId: reportSla.reportId, due: reportSla.responseDueAt })
      .from(reportSla)
      .where(and(lte(reportSla.responseDueAt, now), isNull(reportSla.respondedAt), isNull(reportSla.responseBreachedAt)))
      .limit(BATCH)
      .all()
    const resolve = tx
      .select({ reportId: reportSla.reportId, due: reportSla.resolveDueAt })
      .from(reportSla)
      .where(and(lte(reportSla.resolveDueAt, now), isNull(reportSla.resolvedAt), isNull(reportSla.resolveBreachedAt)))
      .limit(BATCH)
      .all()
    for (const c of response) {
      tx.update(reportSla).set({ responseBreachedAt: now }).where(eq(reportSla.reportId, c.reportId)).run()
      notifyBreach(deps, tx, c.reportId, 'response', c.due!)
    }
    for (const c of resolve) {
      tx.update(reportSla).set({ resolveBreachedAt: now }).where(eq(reportSla.reportId, c.reportId)).run()
      notifyBreach(deps, tx, c.reportId, 'resolve', c.due!)
    }
    return response.length + resolve.length
  })
}

export const slaSchedule = (deps: Deps): Schedule => ({ name: 'workflow.sla-breaches', pattern: '* * * * *', run: () => void markSlaBreaches(deps), yieldsToRequests: true })
