import type { AppDeps } from '../../app-deps'
import type { Schedule } from '../../jobs/jobs.types'
import { mailEach } from '../notifications/notifications.fanout'
import { recipientsFor } from '../notifications/notifications.service'
import { reportPageUrl } from '../reports/report-links'
import { createProjectsRepository } from '../projects/projects.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { createWorkflowRepository, noticeKey } from './workflow.repository'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'>

/** How far back a due date is still noticed: a report becoming overdue while the server was down for days still gets its mail. */
const LOOKBACK_MS = 7 * 24 * 3600_000
const DONE = ['resolved', 'closed', 'wont_fix'] as const

const noticesOf = (deps: Pick<AppDeps, 'db'>) => createWorkflowRepository({ db: deps.db })

/** Reports whose due date passed between `since` and `now` and whose assignee has not heard of that date, with their project. */
async function overdueUnnoticed(deps: Pick<AppDeps, 'db'>, since: Date, now: Date) {
  const due = await createReportsRepository({ db: deps.db }).assignedDueBetween(since, now, DONE)
  const noticed = await noticesOf(deps).noticedOf(due.map((r) => r.id))
  const fresh = due.filter((r) => !noticed.has(noticeKey(r.id, r.dueDate!)))
  const projects = await createProjectsRepository({ db: deps.db }).byIds([...new Set(fresh.map((r) => r.projectId))])
  return fresh.flatMap((r) => {
    const p = projects.get(r.projectId)
    return p ? [{ ...r, slug: p.slug, projectName: p.name, accountId: p.accountId }] : []
  })
}

/**
 * Mails the assignee of each report that became overdue, once per report and due date (honouring
 * their assignment-mail preference). Reads only the last week's due dates through `reports_due_idx`.
 */
export async function noticeOverdueReports(deps: Deps): Promise<number> {
  const now = deps.clock.now()
  return deps.db.write(async (tx) => {
    const due = await overdueUnnoticed(deps, new Date(now.getTime() - LOOKBACK_MS), now)
    for (const r of due) {
      const to = await recipientsFor(deps, { accountId: r.accountId, projectId: r.projectId, userIds: [r.assignedTo!], preference: 'email_bug_assigned' })
      await mailEach(deps, tx, to, 'email_bug_assigned', () => ({
        subject: `[${r.projectName}] Overdue: #${r.number} ${r.title}`,
        intro: `#${r.number} ${r.title} was due ${r.dueDate!.toISOString().slice(0, 16).replace('T', ' ')} UTC and is not resolved yet.`,
        body: [],
        link: { label: 'Open the report', url: reportPageUrl(deps.config.publicUrl, r.slug, r.number) },
      }))
      await noticesOf(deps).insertNotice({ reportId: r.id, dueDate: r.dueDate!, sentAt: now })
    }
    return due.length
  })
}

export const overdueSchedule = (deps: Deps): Schedule => ({ name: 'workflow.overdue-notices', pattern: '*/5 * * * *', run: async () => void (await noticeOverdueReports(deps)), yieldsToRequests: true })
