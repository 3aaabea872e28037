import { and, asc, eq, gte, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { badRequest, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import { playSessions } from '../sdk/sdk.table'
import { reportCountsSince } from './hourly-counts'
import { type AlertMetric, alertRules } from './workflow.table'

type Deps = Pick<AppDeps, 'db' | 'clock'>
type Rule = typeof alertRules.$inferSelect
interface Ctx {
  project: { id: string; accountId: string }
  userId: string
}

export const alertView = (r: Rule) => ({
  id: r.id,
  metric: r.metric,
  threshold: r.threshold,
  window_hours: r.windowHours,
  enabled: r.enabled,
  last_evaluated_at: r.lastEvaluatedAt?.toISOString() ?? null,
  last_value: r.lastValue,
  last_fired_at: r.lastFiredAt?.toISOString() ?? null,
  created_at: r.createdAt.toISOString(),
})

/** `GET /alerts`. */
export const listAlerts = (db: DbOrTx, projectId: string) =>
  db.select().from(alertRules).where(eq(alertRules.projectId, projectId)).orderBy(asc(alertRules.createdAt), asc(alertRules.id)).all().map(alertView)

/** `POST /alerts`. */
export function createAlert(deps: Deps, ctx: Ctx, body: { metric: AlertMetric; threshold: number; window_hours: number; enabled?: boolean }) {
  return deps.db.transaction((tx) => {
    const now = deps.clock.now()
    const row = tx
      .insert(alertRules)
      .values({ id: newId(), projectId: ctx.project.id, metric: body.metric, threshold: body.threshold, windowHours: body.window_hours, enabled: body.enabled ?? true, createdBy: ctx.userId, createdAt: now, updatedAt: now })
      .returning()
      .get()!
    recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'alert.created', target: row.id, details: { metric: row.metric, threshold: row.threshold, window_hours: row.windowHours } })
    return alertView(row)
  })
}

function findRule(db: DbOrTx, projectId: string, id: string): Rule {
  const row = db.select().from(alertRules).where(and(eq(alertRules.id, id), eq(alertRules.projectId, projectId))).get()
  if (!row) throw notFound('alert rule not found')
  return row
}

/** `PATCH /alerts/{id}`: threshold, window_hours, enabled. */
export function updateAlert(deps: Deps, ctx: Ctx, id: string, body: { threshold?: number; window_hours?: number; enabled?: boolean }) {
  const set = {
    ...(body.threshold !== undefined && { threshold: body.threshold }),
    ...(body.window_hours !== undefined && { windowHours: body.window_hours }),
    ...(body.enabled !== undefined && { enabled: body.enabled }),
  }
  return deps.db.transaction((tx) => {
    findRule(tx, ctx.project.id, id)
    if (Object.keys(set).length === 0) throw badRequest('no valid fields to update')
    const now = deps.clock.now()
    const row = tx.update(alertRules).set({ ...set, updatedAt: now }).where(eq(alertRules.id, id)).returning().get()!
    recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'alert.updated', target: id, details: body })
    return alertView(row)
  })
}

/** `DELETE /alerts/{id}`. */
export function deleteAlert(deps: Deps, ctx: Ctx, id: string): void {
  deps.db.transaction((tx) => {
    const rule = findRule(tx, ctx.project.id, id)
    tx.delete(alertRules).where(eq(alertRules.id, id)).run()
    recordAudit(tx, deps.clock.now(), { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'alert.deleted', target: id, details: { metric: rule.metric } })
  })
}

/**
 * A metric's value over the window ending now. Report metrics sum the hourly counts (the hour holding
 * the window's start counts whole); crash_rate is crashed sessions per 100 ended sessions among the
 * sessions started in the window (0 with no ended session).
 */
export function metricValue(db: DbOrTx, projectId: string, metric: AlertMetric, since: Date): number {
  if (metric === 'crash_rate') {
    const s = db
      .select({ ended: sql<number>`count(${playSessions.endedAt})`, crashed: sql<number>`coalesce(sum(CASE WHEN ${playSessions.endedAt} IS NOT NULL AND ${playSessions.crashed} THEN 1 ELSE 0 END), 0)` })
      .from(playSessions)
      .where(and(eq(playSessions.projectId, projectId), gte(playSessions.startedAt, since)))
      .get()!
    return s.ended === 0 ? 0 : Math.round((s.crashed / s.ended) * 10_000) / 100
  }
  const c = reportCountsSince(db, projectId, since)
  return metric === 'new_reports' ? c.reports : metric === 'new_crash_reports' ? c.crashReports : c.negativeReports
}
