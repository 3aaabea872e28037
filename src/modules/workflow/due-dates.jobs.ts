import { and, eq, gt, isNotNull, isNull, lte, notInArray } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Schedule } from '../../jobs/jobs.types'
import { projects } from '../projects/projects.table'
import { mailEach } from '../notifications/notifications.fanout'
import { recipientsFor } from '../notifications/notifications.service'
import { reports } from '../reports/reports.table'
import { dueNotices } from './workflow.table'
import { reportPageUrl } from '../reports/report-links'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'>

/** How far back a due date is still noticed: a report becoming overdue while the server was down for days still gets its mail. */
const LOOKBACK_MS = 7 * 24 * 3600_000
const DONE = ['resolved', 'closed', 'wont_fix'] as const

/**
 * Mails the assignee of each report that became overdue, once per report and due date (honouring
 * their assignment-mail preference). Reads only the last week's due dates through `reports_due_idx`.
 */
export function noticeOverdueReports(deps: Deps): number {
  const now = deps.clock.now()
  return deps.db.transaction((tx) => {
    const due = tx
      .select({ id: reports.id, number: reports.reportNumber, title: reports.title, dueDate: reports.dueDate, assignedTo: reports.assignedTo, slug: projects.slug, projectName: projects.name, accountId: projects.accountId, projectId: projects.id })
      .from(reports)
      .innerJoin(projects, eq(projects.id, reports.projectId))
      .leftJoin(dueNotices, and(eq(dueNotices.reportId, reports.id), eq(dueNotices.dueDate, reports.dueDate)))
      .where(
        and(
          isNull(reports.deletedAt),
          isNotNull(reports.dueDate),
          gt(reports.dueDate, new Date(now.getTime() - LOOKBACK_MS)),
          lte(reports.dueDate, now),
          notInArray(reports.status, [...DONE]),
          isNotNull(reports.assignedTo),
          isNull(dueNotices.reportId),
        ),
      )
      .all()
    for (const r of due) {
      const to = recipientsFor(tx, { accountId: r.accountId, projectId: r.projectId, userIds: [r.assignedTo!], preference: 'email_bug_assigned' })
      mailEach(deps, tx, to, 'email_bug_assigned', () => ({
        subject: `[${r.projectName}] Overdue: #${r.number} ${r.title}`,
        intro: `#${r.number} ${r.title} was due ${r.dueDate!.toISOString().slice(0, 16).replace('T', ' ')} UTC and is not resolved yet.`,
        body: [],
        link: { label: 'Open the report', url: reportPageUrl(deps.config.publicUrl, r.slug, r.number) },
      }))
      tx.insert(dueNotices).values({ reportId: r.id, dueDate: r.dueDate!, sentAt: now }).onConflictDoNothing().run()
    }
    return due.length
  })
}

export const overdueSchedule = (deps: Deps): Schedule => ({ name: 'workflow.overdue-notices', pattern: '*/5 * * * *', run: () => void noticeOverdueReports(deps), yieldsToRequests: true })
