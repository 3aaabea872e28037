import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import type { JobHandler, Schedule } from '../../jobs/jobs.types'
import { createAccountsRepository } from '../auth/accounts.repository'
import { recordActivity } from '../activity/activity.service'
import { mailEach } from '../notifications/notifications.fanout'
import { recipientsFor } from '../notifications/notifications.service'
import { createProjectsRepository } from '../projects/projects.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { createSlaRepository } from './sla.repository'
import { reportPageUrl } from '../reports/report-links'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config' | 'jobs'>
/**
 * Clocks marked per run and part: a run stays well under 100 ms; a larger backlog (a burst of reports
 * all breaching in the same minute) is worked off over the next minutes, 500 a minute.
 */
const BATCH = 250
const NOTICE_KIND = 'workflow.sla-breach-notice'

interface NoticePayload {
  reportId: string
  part: 'response' | 'resolve'
  due: number
}

/** Notifies a breach once: the assignee, or the account's owner and admins when nobody is assigned. */
async function notifyBreach(deps: Deps, tx: Query, reportId: string, part: 'response' | 'resolve', due: Date): Promise<void> {
  const r = await createReportsRepository({ db: deps.db }).byId(reportId)
  const project = r && !r.deletedAt ? await createProjectsRepository({ db: deps.db }).byId(r.projectId) : undefined
  if (!r || !project) return
  await recordActivity(tx, deps.clock.now(), [{ projectId: r.projectId, reportId, actorId: null, action: 'sla_breached', field: part, newValue: due.toISOString() }])
  const to = r.assignedTo
    ? await recipientsFor(deps, { accountId: project.accountId, projectId: r.projectId, userIds: [r.assignedTo], preference: 'email_bug_assigned' })
    : await recipientsFor(deps, { accountId: project.accountId, projectId: r.projectId, userIds: await createAccountsRepository({ db: deps.db }).managerIds(project.accountId), preference: 'email_bug_status' })
  const what = part === 'response' ? 'a first response' : 'resolution'
  await mailEach(deps, tx, to, r.assignedTo ? 'email_bug_assigned' : 'email_bug_status', () => ({
    subject: `[${project.name}] SLA breached: #${r.reportNumber} ${r.title}`,
    intro: `#${r.reportNumber} ${r.title} missed its SLA for ${what}, due ${due.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    body: [],
    link: { label: 'Open the report', url: reportPageUrl(deps.config.publicUrl, project.slug, r.reportNumber) },
  }))
}

const enqueuers = new WeakMap<object, ReturnType<Deps['jobs']['prepare']>>()
/** The notice job's insert, prepared once per connection (a run may enqueue hundreds). */
function noticeEnqueuer(deps: Deps) {
  let e = enqueuers.get(deps.db)
  if (!e) enqueuers.set(deps.db, (e = deps.jobs.prepare(deps.db, NOTICE_KIND)))
  return e
}

/**
 * Marks the clocks that ran past their due time as breached and enqueues one notice job for each (the
 * mail and the activity entry are written by the job). Reads only the partial indexes of running
 * clocks up to now, never the reports: cheap whatever the project's size.
 */
export async function markSlaBreaches(deps: Deps): Promise<number> {
  const now = deps.clock.now()
  return deps.db.write(async () => {
    const { response, resolve } = await createSlaRepository({ db: deps.db }).markBreaches(now, BATCH)
    const notices: NoticePayload[] = [...response.map((c) => ({ reportId: c.reportId, part: 'response' as const, due: c.due.getTime() })), ...resolve.map((c) => ({ reportId: c.reportId, part: 'resolve' as const, due: c.due.getTime() }))]
    const enqueue = noticeEnqueuer(deps)
    await enqueue(notices.map((p) => ({ payload: p, idempotencyKey: `sla:${p.reportId}:${p.part}:${p.due}` })))
    return response.length + resolve.length
  })
}

/** Writes one breach's activity entry and mail. */
export const slaNoticeHandler = (deps: Deps): JobHandler<NoticePayload> => ({
  kind: NOTICE_KIND,
  async run(p) {
    await deps.db.write((tx) => notifyBreach(deps, tx, p.reportId, p.part, new Date(p.due)))
  },
})

export const slaSchedule = (deps: Deps): Schedule => ({ name: 'workflow.sla-breaches', pattern: '* * * * *', run: async () => void (await markSlaBreaches(deps)), yieldsToRequests: true })
