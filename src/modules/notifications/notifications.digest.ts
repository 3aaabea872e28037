import type { AppDeps } from '../../app-deps'
import type { JobHandler, Schedule } from '../../jobs/jobs.types'
import { DAY } from '../../lib/clock'
import { canSeeProject } from '../auth/project-access'
import { createProjectsRepository } from '../projects/projects.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { mailEach, statusLabel } from './notifications.fanout'
import { claimOnce } from './notifications.once'
import { createNotificationsRepository } from './notifications.repository'
import { type Recipient, recipientsFor } from './notifications.service'

export const DIGEST_KIND = 'notifications.digest'
/** Monday 09:00 server time. */
export const DIGEST_PATTERN = '0 9 * * 1'
const TOP_OPEN = 5

type Deps = Pick<AppDeps, 'db' | 'clock' | 'jobs' | 'mailer' | 'config'>

/** The Monday (UTC date) of `now`'s week: the digest's idempotency key, so a repeated tick mails once. */
function weekOf(now: Date): string {
  const d = new Date(now)
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7))
  return d.toISOString().slice(0, 10)
}

/** The schedule's tick: one digest job per account for this week. */
export async function enqueueDigests(deps: Deps): Promise<void> {
  const now = deps.clock.now()
  const week = weekOf(now)
  await deps.db.write(async (tx) => {
    const ids = await createNotificationsRepository({ db: deps.db }).accountIds()
    await deps.jobs.enqueue(
      tx,
      ids.map((id) => ({ kind: DIGEST_KIND, payload: { accountId: id, until: now.toISOString() }, idempotencyKey: `digest:${id}:${week}` })),
    )
  })
}

export const digestSchedule = (deps: Deps): Schedule => ({ name: 'notifications.weekly-digest', pattern: DIGEST_PATTERN, run: () => enqueueDigests(deps) })

/** The digest of `list`'s week: per-project counts and the top open reports, or null when there is nothing to say. */
async function digestOf(deps: Deps, list: { id: string; name: string }[], start: Date, end: Date) {
  if (list.length === 0) return null
  const repo = createReportsRepository({ db: deps.db })
  const ids = list.map((p) => p.id)
  const counts = await repo.weekCounts(ids, start, end)
  const top = await repo.topOpen(ids, end, TOP_OPEN)
  const byId = new Map(counts.map((c) => [c.projectId, c]))
  const total = (k: 'created' | 'resolved' | 'open') => counts.reduce((n, c) => n + (c[k] ?? 0), 0)
  if (total('created') + total('resolved') + total('open') === 0) return null
  const name = new Map(list.map((p) => [p.id, p.name]))
  const lines = list
    .filter((p) => byId.has(p.id))
    .map((p) => {
      const c = byId.get(p.id)!
      return `${p.name}: ${c.created ?? 0} new, ${c.resolved ?? 0} resolved, ${c.open ?? 0} open`
    })
  const topLines = top.map((t) => `#${t.number} ${t.title} (${name.get(t.projectId)}, ${t.priority}, ${statusLabel(t.status)})`)
  return {
    subject: `Your weekly bug digest: ${total('created')} new, ${total('resolved')} resolved`,
    intro: `Here is what happened from ${start.toISOString().slice(0, 10)} to ${end.toISOString().slice(0, 10)}.`,
    body: [lines.join('\n'), ...(topLines.length ? [`Top open reports by priority:\n${topLines.join('\n')}`] : [])],
  }
}

/**
 * The `notifications.digest` job: the week's new, resolved and top open reports of an account, to members
 * who want it. Each member's digest covers the projects they see: members with the same access share one.
 */
export const digestHandler = (deps: Deps): JobHandler<{ accountId: string; until: string }> => ({
  kind: DIGEST_KIND,
  timeoutMs: 120_000,
  async run({ accountId, until }, ctx) {
    const end = new Date(until)
    const start = new Date(end.getTime() - 7 * DAY)
    await deps.db.write(async (tx) => {
      if (!(await claimOnce(deps, ctx.jobId, deps.clock.now()))) return
      const list = await createProjectsRepository({ db: deps.db }).namesInAccount(accountId)
      const byAccess = new Map<string, Recipient[]>()
      for (const r of await recipientsFor(deps, { accountId, projectId: null, userIds: 'all', preference: 'email_weekly_digest' })) {
        const key = r.projectIds ? JSON.stringify([...r.projectIds].sort()) : 'all'
        byAccess.set(key, [...(byAccess.get(key) ?? []), r])
      }
      for (const to of byAccess.values()) {
        const digest = await digestOf(deps, list.filter((p) => canSeeProject(to[0]!.projectIds, p.id)), start, end)
        if (digest) await mailEach(deps, tx, to, 'email_weekly_digest', () => digest)
      }
    })
  },
})
