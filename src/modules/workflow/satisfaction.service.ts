import type { AppDeps } from '../../app-deps'
import { newId } from '../../lib/ids'
import { createAuthRepository } from '../auth/auth.repository'
import { liveReport } from '../reports/project-reports'
import { createWorkflowRepository } from './workflow.repository'

type Deps = Pick<AppDeps, 'db' | 'clock'>

const ratingsOf = (deps: Pick<AppDeps, 'db'>) => createWorkflowRepository({ db: deps.db })

/** `GET /bugs/{number}/satisfaction`: every rating with the average (null when none). */
export async function readRatings(deps: Pick<AppDeps, 'db'>, projectId: string, rawNumber: string) {
  const report = await liveReport(deps.db, projectId, rawNumber)
  const all = await ratingsOf(deps).ratingsOf(report.id)
  const names = await createAuthRepository({ db: deps.db }).namesOf(all.map((r) => r.raterId))
  // A rating goes with its rater (foreign key), so every rater has a name; the filter keeps the inner join's meaning.
  const rows = all.filter((r) => names.has(r.raterId))
  const average = rows.length ? Math.round((rows.reduce((s, r) => s + r.rating, 0) / rows.length) * 100) / 100 : null
  return {
    average,
    count: rows.length,
    ratings: rows.map((r) => ({ id: r.id, rating: r.rating, comment: r.comment, rater_id: r.raterId, rater_name: names.get(r.raterId)!, created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString() })),
  }
}

/** `POST /bugs/{number}/satisfaction`: one rating per rater; a second one replaces the first. Returns whether it was new. */
export async function rate(deps: Deps, projectId: string, raterId: string, rawNumber: string, body: { rating: number; comment?: string }) {
  return deps.db.write(async (tx) => {
    const report = await liveReport(tx, projectId, rawNumber)
    const now = deps.clock.now()
    const existing = await ratingsOf(deps).ratingBy(report.id, raterId)
    const comment = body.comment ?? ''
    if (existing) {
      await ratingsOf(deps).updateRating(existing, { rating: body.rating, comment, updatedAt: now })
      return { id: existing, rating: body.rating, comment, is_new: false }
    }
    const id = newId()
    await ratingsOf(deps).insertRating({ id, reportId: report.id, raterId, rating: body.rating, comment, createdAt: now, updatedAt: now })
    return { id, rating: body.rating, comment, is_new: true }
  })
}
