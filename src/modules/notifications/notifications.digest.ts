import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Tx } from '../../db/client'
import type { JobHandler, Schedule } from '../../jobs/jobs.types'
import { DAY } from '../../lib/clock'
import { accounts } from '../accounts/accounts.table'
import { canSeeProject } from '../accounts/project-access'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'
import { mailEach, statusLabel } from './notifications.fanout'
import { claimOnce } from './notifications.once'
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
export function enqueueDigests(deps: Deps): void {
  const now = deps.clock.now()
  const week = weekOf(now)
  deps.db.transaction((tx) => {
    for (const a of tx.select({ id: accounts.id }).from(accounts).all()) {
      deps.jobs.enqueue(tx, { kind: DIGEST_KIND, payload: { accountId: a.id, until: now.toISOString() }, idempotencyKey: `digest:${a.id}:${week}` })
    }
  })
}

export const digestSchedule = (deps: Deps): Schedule => ({ name: 'notifications.weekly-digest', pattern: DIGEST_PATTERN, run: () => enqueueDigests(deps) })

/** The digest of `list`'s week: per-project counts and the top open reports, or null when there is nothing to say. */
function digestOf(tx: Tx, list: { id: string; name: string }[], start: Date, end: Date) {
  if (list.length === 0) return null
  const live = and(inArray(reports.projectId, list.map((p) => p.id)), isNull(reports.deletedAt))
  const counts = tx
    .select({
      projectId: reports.projectId,
      created: sql<number>`sum(${reports.createdAt} >= ${start.getTime()} and ${reports.createdAt} < ${end.getTime()})`,
      resolved: sql<number>`sum(${reports.status} in ('resolved', 'closed') and ${reports.updatedAt} >= ${start.getTime()} and ${reports.updatedAt} < ${end.getTime()})`,
      open: sql<number>`sum(${reports.status} in ('open', 'in_progress'))`,
    })
    .from(reports)
    .where(live)
    .groupBy(reports.projectId)
    .all()
  const top = tx
    .select({ projectId: reports.projectId, number: reports.reportNumber, title: reports.title, priority: reports.priority, status: reports.status })
    .from(reports)
    .where(and(live, inArray(reports.status, ['open', 'in_progress']), lt(reports.createdAt, end)))
    .orderBy(asc(reports.priorityRank), desc(reports.createdAt))
    .limit(TOP_OPEN)
    .all()
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
    deps.db.transaction((tx) => {
      if (!claimOnce(tx, ctx.jobId, deps.clock.now())) return
      const list = tx.select({ id: projects.id, name: projects.name }).from(projects).where(eq(projects.accountId, accountId)).orderBy(asc(projects.name)).all()
      const byAccess = new Map<string, Recipient[]>()
      for (const r of recipientsFor(tx, { accountId, projectId: null, userIds: 'all', preference: 'email_weekly_digest' })) {
        const key = r.projectIds ? JSON.stringify([...r.projectIds].sort()) : 'all'
        byAccess.set(key, [...(byAccess.get(key) ?? []), r])
      }
      for (const to of byAccess.values()) {
        const digest = digestOf(tx, list.filter((p) => canSeeProject(to[0]!.projectIds, p.id)), start, end)
        if (digest) mailEach(deps, tx, to, 'email_weekly_digest', () => digest)
      }
    })
  },
})
