import type { AppDeps } from '../../app-deps'
import { recordActivity } from '../activity/activity.service'
import { liveReport } from '../reports/project-reports'
import { createReportsRepository } from '../reports/reports.repository'
import { serializeReportForEvent } from '../reports/reports.service'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'events'>

/** A due date from the API: a date means the end of that UTC day, a date-time itself; null clears. */
export function parseDueDate(raw: string | null): Date | null {
  if (raw === null) return null
  return /^\d{4}-\d{2}-\d{2}$/.test(raw) ? new Date(`${raw}T23:59:59.999Z`) : new Date(raw)
}

/** `PATCH /bugs/{number}/due-date`: sets or clears the due date; logs it and emits `bug_updated` when it changes. */
export async function setDueDate(deps: Deps, project: { id: string }, userId: string, rawNumber: string, raw: string | null) {
  const due = parseDueDate(raw)
  return deps.db.write(async (tx) => {
    const report = await liveReport(tx, project.id, rawNumber)
    const before = report.dueDate?.toISOString() ?? null
    const after = due?.toISOString() ?? null
    if (before !== after) {
      const now = deps.clock.now()
      const updated = (await createReportsRepository({ db: deps.db }).update(report.id, { dueDate: due, updatedAt: now }))!
      await recordActivity(tx, now, [{ projectId: project.id, reportId: report.id, actorId: userId, action: 'updated', field: 'due_date', oldValue: before, newValue: after }])
      await deps.events.emit(tx, { type: 'bug_updated', projectId: project.id, reportId: report.id, actorId: userId, data: serializeReportForEvent(updated), changes: { due_date: [before, after] } })
    }
    return { due_date: after }
  })
}
