import type { AppDeps } from '../../app-deps'
import { badRequest, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import { createSdkRepository } from '../sdk/sdk.repository'
import { reportCountsSince } from './hourly-counts'
import { createReportsRepository } from '../reports/reports.repository'
import { createReportTrendRepository } from '../reports/report-trend.repository'
import { type AlertRule, createAlertsRepository } from './alerts.repository'
import type { AlertMetric } from './workflow.table'

type Deps = Pick<AppDeps, 'db' | 'clock'>
interface Ctx {
  project: { id: string; accountId: string }
  userId: string
}

export const alertView = (r: AlertRule) => ({
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

const rulesOf = (deps: Pick<AppDeps, 'db'>) => createAlertsRepository({ db: deps.db })

/** `GET /alerts`. */
export const listAlerts = async (deps: Pick<AppDeps, 'db'>, projectId: string) => (await rulesOf(deps).rules(projectId)).map(alertView)

/** `POST /alerts`. */
export async function createAlert(deps: Deps, ctx: Ctx, body: { metric: AlertMetric; threshold: number; window_hours: number; enabled?: boolean }) {
  return deps.db.write(async (tx) => {
    const now = deps.clock.now()
    const row = await rulesOf(deps).insertRule({ id: newId(), projectId: ctx.project.id, metric: body.metric, threshold: body.threshold, windowHours: body.window_hours, enabled: body.enabled ?? true, createdBy: ctx.userId, createdAt: now, updatedAt: now })
    await recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'alert.created', target: row.id, details: { metric: row.metric, threshold: row.threshold, window_hours: row.windowHours } })
    return alertView(row)
  })
}

async function findRule(deps: Pick<AppDeps, 'db'>, projectId: string, id: string): Promise<AlertRule> {
  const row = await rulesOf(deps).rule(projectId, id)
  if (!row) throw notFound('alert rule not found')
  return row
}

/** `PATCH /alerts/{id}`: threshold, window_hours, enabled. */
export async function updateAlert(deps: Deps, ctx: Ctx, id: string, body: { threshold?: number; window_hours?: number; enabled?: boolean }) {
  const set = {
    ...(body.threshold !== undefined && { threshold: body.threshold }),
    ...(body.window_hours !== undefined && { windowHours: body.window_hours }),
    ...(body.enabled !== undefined && { enabled: body.enabled }),
  }
  return deps.db.write(async (tx) => {
    await findRule(deps, ctx.project.id, id)
    if (Object.keys(set).length === 0) throw badRequest('no valid fields to update')
    const now = deps.clock.now()
    const row = await rulesOf(deps).updateRule(id, { ...set, updatedAt: now })
    await recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'alert.updated', target: id, details: body })
    return alertView(row)
  })
}

/** `DELETE /alerts/{id}`. */
export async function deleteAlert(deps: Deps, ctx: Ctx, id: string): Promise<void> {
  await deps.db.write(async (tx) => {
    const rule = await findRule(deps, ctx.project.id, id)
    await rulesOf(deps).removeRule(id)
    await recordAudit(tx, deps.clock.now(), { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'alert.deleted', target: id, details: { metric: rule.metric } })
  })
}

/** The project's live reports escalating at `now` (reports/report-trend.ts), most recent number first. */
export async function escalatingReports(deps: Pick<AppDeps, 'db'>, projectId: string, now: Date): Promise<{ number: number; title: string }[]> {
  const ids = await createReportTrendRepository({ db: deps.db }).escalating(projectId, now)
  const live = await createReportsRepository({ db: deps.db }).liveNumbers([...ids])
  const named = await createReportsRepository({ db: deps.db }).numbersAndTitles([...live.keys()])
  return [...named.values()].sort((a, b) => b.number - a.number)
}

/**
 * A metric's value over the window ending now. Report metrics sum the hourly counts (the hour holding
 * the window's start counts whole); crash_rate is crashed sessions per 100 sessions started in the
 * window, ended or still running (0 without sessions): the crash-free rate's rule (analytics
 * crashFreeRate), so an alert at 5 fires when the overview reads under 95% crash-free. escalating_reports
 * is how many reports are escalating at the window's end (escalatingReports), whatever the window.
 */
export async function metricValue(deps: Pick<AppDeps, 'db'>, projectId: string, metric: AlertMetric, since: Date, now: Date): Promise<number> {
  if (metric === 'escalating_reports') return (await escalatingReports(deps, projectId, now)).length
  if (metric === 'crash_rate') {
    const s = await createSdkRepository({ db: deps.db }).sessionsAndCrashedSince(projectId, since)
    return s.sessions === 0 ? 0 : Math.round((s.crashed / s.sessions) * 10_000) / 100
  }
  const c = await reportCountsSince(deps, projectId, since)
  return metric === 'new_reports' ? c.reports : metric === 'new_crash_reports' ? c.crashReports : c.negativeReports
}
