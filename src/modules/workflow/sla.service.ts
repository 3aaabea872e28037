import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import type { DomainEvent } from '../../events/domain-events'
import { badRequest } from '../../http/errors'
import { recordAudit } from '../activity/activity.service'
import { PRIORITIES, type Priority } from '../reports/reports.types'
import { createSlaRepository, type SlaClock, slaSubscriberStatements } from './sla.repository'

const HOUR = 3600_000
export type SlaState = 'ok' | 'at_risk' | 'breached'
const DONE = ['resolved', 'closed', 'wont_fix']
/** The last fifth of a window is "at risk". */
const AT_RISK_SHARE = 0.2

export interface SlaRuleView {
  priority: Priority
  response_hours: number
  resolve_hours: number
}

const slaOf = (deps: Pick<AppDeps, 'db'>) => createSlaRepository({ db: deps.db })

/** `GET /sla`: the rules in priority order. */
export async function readSla(deps: Pick<AppDeps, 'db'>, projectId: string): Promise<{ rules: SlaRuleView[] }> {
  const rows = await slaOf(deps).rules(projectId)
  rows.sort((a, b) => PRIORITIES.indexOf(a.priority) - PRIORITIES.indexOf(b.priority))
  return { rules: rows.map((r) => ({ priority: r.priority, response_hours: r.responseHours, resolve_hours: r.resolveHours })) }
}

/**
 * `PUT /sla`: replaces every rule (one per priority). Clocks already running keep their due times;
 * the new rules apply to reports filed or re-prioritized from now on.
 */
export async function replaceSla(deps: Pick<AppDeps, 'db' | 'clock'>, ctx: { project: { id: string; accountId: string }; userId: string }, rules: SlaRuleView[]) {
  const seen = new Set<string>()
  for (const r of rules) {
    if (seen.has(r.priority)) throw badRequest(`rules: ${r.priority} appears twice (one rule per priority)`)
    seen.add(r.priority)
  }
  return deps.db.write(async (tx) => {
    await slaOf(deps).replaceRules(ctx.project.id, rules.map((r) => ({ priority: r.priority, responseHours: r.response_hours, resolveHours: r.resolve_hours })))
    await recordAudit(tx, deps.clock.now(), { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'sla.updated', details: { rules } })
    return readSla(deps, ctx.project.id)
  })
}

/**
 * The rule of a project for the priority `priorityOf()` gives; one prepared lookup of the project's
 * rules (it runs for every new report). The priority is asked for only when the project has rules:
 * reading it from a bug_created event builds the event's whole payload (~15 µs), which most
 * projects, without rules or webhooks, never need.
 */
async function ruleFor(st: ReturnType<typeof slaSubscriberStatements>, projectId: string, priorityOf: () => string) {
  const rules = await st.rules(projectId)
  if (rules.length === 0) return undefined
  const priority = priorityOf()
  return rules.find((r) => r.priority === priority)
}

/** A clock's due times under `rule` for a clock started at `started`. */
const dueTimes = (started: Date, rule: { responseHours: number; resolveHours: number }) => ({
  responseDueAt: new Date(started.getTime() + rule.responseHours * HOUR),
  resolveDueAt: new Date(started.getTime() + rule.resolveHours * HOUR),
})

/**
 * Keeps SLA clocks in step with report events, inside the writer's transaction: a new report under a
 * rule starts one; a priority change moves its due times; the first team comment or status change
 * meets the response; a done status meets the resolve (reopening runs it again).
 */
export function slaSubscriber(deps: Pick<AppDeps, 'clock'>) {
  return async (tx: Query, e: DomainEvent): Promise<void> => {
    const now = deps.clock.now()
    const st = slaSubscriberStatements(tx)
    if (e.type === 'bug_created') {
      const rule = await ruleFor(st, e.projectId, () => String(e.data.priority))
      if (!rule) return
      const started = new Date(String(e.data.created_at))
      await st.start({ reportId: e.reportId, projectId: e.projectId, startedAt: started, ...dueTimes(started, rule) })
      return
    }
    const clock = await st.clockOf(e.reportId)
    if (e.type === 'bug_updated' && e.changes?.priority) {
      const rule = await ruleFor(st, e.projectId, () => String(e.changes!.priority![1]))
      if (!rule && clock) await st.update(e.reportId, { responseDueAt: null, resolveDueAt: null })
      if (rule) {
        const started = clock?.startedAt ?? new Date(String(e.data.created_at))
        await st.setDue({ reportId: e.reportId, projectId: e.projectId, startedAt: started }, dueTimes(started, rule))
      }
    }
    if (!clock || !e.actorId) return
    const set: Partial<SlaClock> = {}
    const status = e.type === 'bug_updated' ? e.changes?.status : undefined
    if (!clock.respondedAt && (e.type === 'comment_added' || status)) set.respondedAt = now
    if (status && DONE.includes(String(status[1])) && !clock.resolvedAt) set.resolvedAt = now
    if (status && !DONE.includes(String(status[1])) && clock.resolvedAt) set.resolvedAt = null
    if (Object.keys(set).length) await st.update(e.reportId, set)
  }
}

type PartState = 'ok' | 'at_risk' | 'breached' | 'met'

function partState(started: Date, due: Date | null, metAt: Date | null, breachedAt: Date | null, now: Date): PartState | null {
  if (!due) return null
  if (breachedAt || (metAt ? metAt > due : now > due)) return 'breached'
  if (metAt) return 'met'
  const window = due.getTime() - started.getTime()
  return now.getTime() >= due.getTime() - window * AT_RISK_SHARE ? 'at_risk' : 'ok'
}

/** A clock as the API shows it: `state` is breached, at_risk or ok (met parts count as ok), with each part and its due time. */
export function slaView(c: SlaClock | undefined, now: Date) {
  if (!c || (!c.responseDueAt && !c.resolveDueAt)) return null
  const response = partState(c.startedAt, c.responseDueAt, c.respondedAt, c.responseBreachedAt, now)
  const resolve = partState(c.startedAt, c.resolveDueAt, c.resolvedAt, c.resolveBreachedAt, now)
  const parts = [response, resolve]
  const state = parts.includes('breached') ? 'breached' : parts.includes('at_risk') ? 'at_risk' : 'ok'
  return {
    state,
    response: response === null ? null : { state: response, due_at: c.responseDueAt!.toISOString(), met_at: c.respondedAt?.toISOString() ?? null },
    resolve: resolve === null ? null : { state: resolve, due_at: c.resolveDueAt!.toISOString(), met_at: c.resolvedAt?.toISOString() ?? null },
  }
}

/** The clocks of a list page's reports as the API shows them, by report id. */
export async function slaOfReports(deps: Pick<AppDeps, 'db'>, reportIds: string[], now: Date): Promise<Map<string, ReturnType<typeof slaView>>> {
  return new Map((await slaOf(deps).clocksOf(reportIds)).map((r) => [r.reportId, slaView(r, now)]))
}

/** One report's clock as the API shows it (null without one). */
export async function slaOfReport(deps: Pick<AppDeps, 'db'>, reportId: string, now: Date) {
  return slaView(await slaOf(deps).clockOf(reportId), now)
}

/**
 * SQL for the list filter `sla=` over report_sla (alias-free, `now` as a placeholder): breached when a
 * part is marked breached or past due while running; at_risk when not breached and a running part is in
 * its last fifth; ok when it has a clock and neither.
 */
export function slaStateSql(state: SlaState) {
  const now = sql.placeholder('now')
  const breached = sql`(response_breached_at IS NOT NULL OR resolve_breached_at IS NOT NULL
    OR (responded_at IS NULL AND response_due_at < ${now}) OR (resolved_at IS NULL AND resolve_due_at < ${now})
    OR responded_at > response_due_at OR resolved_at > resolve_due_at)`
  const atRisk = sql`((responded_at IS NULL AND ${now} >= response_due_at - (response_due_at - started_at) * ${AT_RISK_SHARE})
    OR (resolved_at IS NULL AND ${now} >= resolve_due_at - (resolve_due_at - started_at) * ${AT_RISK_SHARE}))`
  const hasClock = sql`(response_due_at IS NOT NULL OR resolve_due_at IS NOT NULL)`
  // A part without a clock compares as NULL; coalesce keeps NOT from turning the whole test NULL.
  // FALSE, not 0: PostgreSQL's coalesce needs a boolean, and SQLite reads FALSE as 0.
  const isBreached = sql`coalesce(${breached}, FALSE)`
  const isAtRisk = sql`coalesce(${atRisk}, FALSE)`
  if (state === 'breached') return sql`${hasClock} AND ${isBreached}`
  if (state === 'at_risk') return sql`${hasClock} AND NOT ${isBreached} AND ${isAtRisk}`
  return sql`${hasClock} AND NOT ${isBreached} AND NOT ${isAtRisk}`
}
