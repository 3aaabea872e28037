import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { reports } from '../reports/reports.table'
import { analyticsRegressions, analyticsVersions } from './analytics.table'
import { compareSemver, parseSemver } from './stats'
import { titleWords, jaccard } from './similarity'

/** Resolved reports examined (newest first) and newer reports of their error types read. */
const RESOLVED_CANDIDATES = 200
const NEWER_CANDIDATES = 1000
/** Titles count as similar from this Jaccard index of their words. */
export const TITLE_SIMILARITY = 0.5

const reportCols = { id: reports.id, seq: reports.seq, reportNumber: reports.reportNumber, title: reports.title, status: reports.status, errorType: reports.errorType, gameVersion: reports.gameVersion, createdAt: reports.createdAt, updatedAt: reports.updatedAt }
type Candidate = { id: string; seq: number; reportNumber: number; title: string; status: string; errorType: string; gameVersion: string; createdAt: Date; updatedAt: Date }

const view = (r: Candidate) => ({ id: r.id, report_number: r.reportNumber, title: r.title, status: r.status, game_version: r.gameVersion, created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString() })

/**
 * `/regressions/detect`: pairs of a resolved (or closed) report from version A and a report filed
 * after its last update from a later version B, with the same error type and similar titles; pairs
 * already confirmed or dismissed are left out. Newest new report first, at most 50.
 */
export function detectRegressions(db: DbOrTx, projectId: string) {
  const resolved = db
    .select(reportCols)
    .from(reports)
    .where(and(eq(reports.projectId, projectId), isNull(reports.deletedAt), inArray(reports.status, ['resolved', 'closed']), gt(reports.errorType, ''), gt(reports.gameVersion, '')))
    .orderBy(desc(reports.seq))
    .limit(RESOLVED_CANDIDATES)
    .all()
  if (!resolved.length) return []
  const types = [...new Set(resolved.map((r) => r.errorType))]
  const newer = db
    .select(reportCols)
    .from(reports)
    .where(and(eq(reports.projectId, projectId), isNull(reports.deletedAt), inArray(reports.errorType, types)))
    .orderBy(desc(reports.seq))
    .limit(NEWER_CANDIDATES)
    .all()
  const decided = new Set(db.select({ a: analyticsRegressions.originalBugId, b: analyticsRegressions.newBugId }).from(analyticsRegressions).where(eq(analyticsRegressions.projectId, projectId)).all().map((r) => `${r.a}|${r.b}`))
  const firstSeen = new Map(db.select({ v: analyticsVersions.gameVersion, t: analyticsVersions.firstSeen }).from(analyticsVersions).where(eq(analyticsVersions.projectId, projectId)).all().map((r) => [r.v, r.t.getTime()]))
  const later = (b: string, a: string) => (parseSemver(a) && parseSemver(b) ? compareSemver(b, a) > 0 : (firstSeen.get(b) ?? 0) > (firstSeen.get(a) ?? 0))
  const out = []
  for (const n of newer) {
    for (const o of resolved) {
      if (n.errorType !== o.errorType || n.seq <= o.seq || n.createdAt <= o.updatedAt || !n.gameVersion || !later(n.gameVersion, o.gameVersion) || decided.has(`${o.id}|${n.id}`)) continue
      const similarity = jaccard(titleWords(o.title), titleWords(n.title))
      if (similarity < TITLE_SIMILARITY) continue
      out.push({ original: view(o), new: view(n), error_type: n.errorType, title_similarity: Math.round(similarity * 100) / 100, resolved_version: o.gameVersion, regressed_version: n.gameVersion })
    }
    if (out.length >= 50) break
  }
  return out.slice(0, 50)
}

export interface RegressionBody {
  original_bug_id: string
  new_bug_id: string
  status: 'confirmed' | 'dismissed'
  resolved_version?: string
  regressed_version?: string
}

function liveReportById(db: DbOrTx, projectId: string, id: string) {
  const r = db.select(reportCols).from(reports).where(and(eq(reports.projectId, projectId), eq(reports.id, id), isNull(reports.deletedAt))).get()
  if (!r) throw notFound('report not found')
  return r
}

const regressionView = (r: typeof analyticsRegressions.$inferSelect, o?: Candidate, n?: Candidate) => ({
  id: r.id,
  original_bug_id: r.originalBugId,
  new_bug_id: r.newBugId,
  original_report_number: o?.reportNumber ?? null,
  new_report_number: n?.reportNumber ?? null,
  original_title: o?.title ?? null,
  new_title: n?.title ?? null,
  status: r.status,
  resolved_version: r.resolvedVersion,
  regressed_version: r.regressedVersion,
  decided_by: r.decidedBy,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
})

/** `POST /regressions`: records (or changes) the decision on a pair; returns it and whether it was new. */
export function decideRegression(deps: Pick<AppDeps, 'db' | 'clock'>, projectId: string, userId: string, body: RegressionBody) {
  return deps.db.transaction((tx) => {
    const o = liveReportById(tx, projectId, body.original_bug_id)
    const n = liveReportById(tx, projectId, body.new_bug_id)
    const now = deps.clock.now()
    const values = { status: body.status, resolvedVersion: body.resolved_version ?? o.gameVersion, regressedVersion: body.regressed_version ?? n.gameVersion, decidedBy: userId, updatedAt: now }
    const existing = tx.select({ id: analyticsRegressions.id }).from(analyticsRegressions).where(and(eq(analyticsRegressions.projectId, projectId), eq(analyticsRegressions.originalBugId, o.id), eq(analyticsRegressions.newBugId, n.id))).get()
    if (existing) tx.update(analyticsRegressions).set(values).where(eq(analyticsRegressions.id, existing.id)).run()
    else tx.insert(analyticsRegressions).values({ id: newId(), projectId, originalBugId: o.id, newBugId: n.id, createdAt: now, ...values }).run()
    const row = tx.select().from(analyticsRegressions).where(and(eq(analyticsRegressions.projectId, projectId), eq(analyticsRegressions.originalBugId, o.id), eq(analyticsRegressions.newBugId, n.id))).get()!
    return { created: !existing, regression: regressionView(row, o, n) }
  })
}

/** `GET /regressions`: recorded decisions, newest first, optionally of one status. */
export function listRegressions(db: DbOrTx, projectId: string, status?: 'confirmed' | 'dismissed') {
  const rows = db
    .select()
    .from(analyticsRegressions)
    .where(and(eq(analyticsRegressions.projectId, projectId), status ? eq(analyticsRegressions.status, status) : undefined))
    .orderBy(desc(analyticsRegressions.updatedAt))
    .limit(500)
    .all()
  const ids = [...new Set(rows.flatMap((r) => [r.originalBugId, r.newBugId]))]
  const byId = new Map(ids.length ? db.select(reportCols).from(reports).where(inArray(reports.id, ids)).all().map((r) => [r.id, r]) : [])
  return rows.map((r) => regressionView(r, byId.get(r.originalBugId), byId.get(r.newBugId)))
}
