import type { AppDeps } from '../../app-deps'
import type { Project } from '../projects/projects.repository'
import { newId } from '../../lib/ids'
import { recordActivity } from '../activity/activity.service'
import { createAuthRepository } from '../auth/auth.repository'
import { liveReportByNumber } from '../reports/project-reports'
import { markTriaged } from '../reports/report-publication'
import { serializeReportForEvent } from '../reports/reports.service'
import type { CreateCommentBody } from './comments.schemas'
import { createCommentsRepository } from './comments.repository'

type Author = { id: string; name: string; displayName: string | null }

/** Adds a comment to a live report, records it in the activity feed and emits `comment_added`. */
export function addComment(deps: Pick<AppDeps, 'db' | 'clock' | 'events'>, ctx: { project: Project; number: string; author: Author }, input: CreateCommentBody) {
  const now = deps.clock.now()
  const isInternal = input.is_internal ?? false
  return deps.db.write(async (tx) => {
    const report = await liveReportByNumber(tx, ctx.project.id, ctx.number)
    const id = newId()
    await createCommentsRepository({ db: deps.db }).insert({ id, reportId: report.id, projectId: ctx.project.id, authorId: ctx.author.id, body: input.body, isInternal, createdAt: now, updatedAt: now })
    await recordActivity(tx, now, [{ projectId: ctx.project.id, reportId: report.id, actorId: ctx.author.id, action: 'commented', newValue: isInternal ? 'internal' : 'public' }])
    // A public reply is the team's touch the `triaged` publish mode waits for (its mail to the player: public/reply-mail.ts).
    if (!isInternal) await markTriaged(tx, [report.id], now)
    await deps.events.emit(tx, {
      type: 'comment_added',
      projectId: ctx.project.id,
      reportId: report.id,
      actorId: ctx.author.id,
      data: {
        id,
        body: input.body,
        is_internal: isInternal,
        author_id: ctx.author.id,
        author_name: ctx.author.displayName ?? ctx.author.name,
        created_at: now.toISOString(),
        report: serializeReportForEvent(report),
      },
    })
    return { id }
  })
}

/** Every comment of a live report, oldest first, internal ones included (the team's view). */
export async function listComments(deps: Pick<AppDeps, 'db'>, project: Project, number: string) {
  const report = await deps.db.read((q) => liveReportByNumber(q, project.id, number))
  const rows = await createCommentsRepository({ db: deps.db }).ofReport(report.id)
  const names = await createAuthRepository({ db: deps.db }).namesOf(rows.flatMap((c) => (c.authorId ? [c.authorId] : [])))
  return rows.map((c) => ({
    id: c.id,
    body: c.body,
    is_internal: c.isInternal,
    author_id: c.authorId,
    author_name: (c.authorId && names.get(c.authorId)) ?? null,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  }))
}
