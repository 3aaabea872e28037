import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import { newId } from '../../lib/ids'
import { recordActivity } from '../activity/activity.service'
import { createAnalyticsRepository } from '../analytics/analytics.repository'
import { reportsRepositoryOf } from '../reports/reports.repository'
import { serializeReportForEvent } from '../reports/reports.service'

/**
 * Reopens a resolved report that a newer build crashed again on: status open, the version and time
 * it regressed, two activity entries (the status change and the regression), `bug_updated` with the
 * status change (webhooks, chat, notifications), and a confirmed row in the regressions list.
 */
export async function reopenAsRegression(deps: Pick<AppDeps, 'events'>, tx: Query, target: { id: string; projectId: string; resolvedInVersion: string | null }, version: string, now: Date): Promise<void> {
  const updated = await reportsRepositoryOf(tx).markRegressed(target.id, version, now)
  await recordActivity(tx, now, [
    { projectId: target.projectId, reportId: target.id, actorId: null, action: 'updated', field: 'status', oldValue: 'resolved', newValue: 'open' },
    { projectId: target.projectId, reportId: target.id, actorId: null, action: 'regressed', oldValue: target.resolvedInVersion, newValue: version || null },
  ])
  await deps.events.emit(tx, { type: 'bug_updated', projectId: target.projectId, reportId: target.id, actorId: null, data: serializeReportForEvent(updated), changes: { status: ['resolved', 'open'] } })
  await createAnalyticsRepository({ db: tx }).confirmRegression({
    id: newId(),
    projectId: target.projectId,
    reportId: target.id,
    resolvedVersion: target.resolvedInVersion ?? '',
    regressedVersion: version,
    now,
  })
}
