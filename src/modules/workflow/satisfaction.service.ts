import { and, asc, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { newId } from '../../lib/ids'
import { users } from '../auth/auth.table'
import { findLiveReport } from '../reports/reports.read'
import { reportRatings } from './workflow.table'

type Deps = Pick<AppDeps, 'db' | 'clock'>

/** `GET /bugs/{number}/satisfaction`: every rating with the average (null when none). */
export function readRatings(db: DbOrTx, projectId: string, rawNumber: string) {
  const report = findLiveReport(db, projectId, rawNumber)
  const rows = db
    .select({ id: reportRatings.id, rating: reportRatings.rating, comment: reportRatings.comment, raterId: reportRatings.raterId, raterName: sql<string>`coalesce(${users.displayName}, ${users.name})`, createdAt: reportRatings.createdAt, updatedAt: reportRatings.updatedAt })
    .from(reportRatings)
    .innerJoin(users, eq(users.id, reportRatings.raterId))
    .where(eq(reportRatings.reportId, report.id))
    .orderBy(asc(reportRatings.createdAt))
    .all()
  const average = rows.length ? Math.round((rows.reduce((s, r) => s + r.rating, 0) / rows.length) * 100) / 100 : null
  return {
    average,
    count: rows.length,
    ratings: rows.map((r) => ({ id: r.id, rating: r.rating, comment: r.comment, rater_id: r.raterId, rater_name: r.raterName, created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString() })),
  }
}

/** `POST /bugs/{number}/satisfaction`: one rating per rater; a second one replaces the first. Returns whether it was new. */
export function rate(deps: Deps, projectId: string, raterId: string, rawNumber: string, body: { rating: number; comment?: string }) {
  return deps.db.transaction((tx) => {
    const report = findLiveReport(tx, projectId, rawNumber)
    const now = deps.clock.now()
    const existing = tx.select({ id: reportRatings.id }).from(reportRatings).where(and(eq(reportRatings.reportId, report.id), eq(reportRatings.raterId, raterId))).get()
    const comment = body.comment ?? ''
    if (existing) {
      tx.update(reportRatings).set({ rating: body.rating, comment, updatedAt: now }).where(eq(reportRatings.id, existing.id)).run()
      return { id: existing.id, rating: body.rating, comment, is_new: false }
    }
    const id = newId()
    tx.insert(reportRatings).values({ id, reportId: report.id, raterId, rating: body.rating, comment, createdAt: now, updatedAt: now }).run()
    return { id, rating: body.rating, comment, is_new: true }
  })
}
