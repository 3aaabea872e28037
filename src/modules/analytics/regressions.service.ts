import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { createReportsRepository, type ReportCandidate as Candidate } from '../reports/reports.repository'
import { createAnalyticsRepository, type Regression } from './analytics.repository'
import { compareSemver, parseSemver } from '../../lib/semver'
import { titleWords, jaccard } from './similarity'

/** Resolved reports examined (newest first) and newer reports of their error types read. */
const RESOLVED_CANDIDATES = 200
const NEWER_CANDIDATES = 1000
/** Titles count as similar from this Jaccard index of their words. */
export const TITLE_SIMILARITY = 0.5


const view = (r: Candidate) => ({ id: r.id, report_number: r.reportNumber, title: r.title, status: r.status, game_version: r.gameVersion, created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString() })

/**
 * `/regressions/detect`: pairs of a resolved (or closed) report from version A and a report filed
 * after its last update from a later version B, with the same error type and similar titles; pairs
 * already confirmed or dismissed are left out. Newest new report first, at most 50.
 */
export async function detectRegressions(db: Seam, projectId: string) {
  const reports = createReportsRepository({ db })
  const repo = createAnalyticsRepository({ db })
  const resolved = await reports.similarCandidates(projectId, { resolvedWithVersion: true, limit: RESOLVED_CANDIDATES })
  if (!resolved.length) return []
  const types = [...new Set(resolved.map((r) => r.errorType))]
  const newer = await reports.similarCandidates(projectId, { errorTypes: types, limit: NEWER_CANDIDATES })
  const decided = new Set((await repo.decidedPairs(projectId)).map((r) => `${r.originalId}|${r.newId}`))
  const firstSeen = new Map((await repo.versions(projectId)).map((r) => [r.version, r.firstSeen.getTime()]))
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

async function liveReportById(db: Seam, projectId: string, id: string) {
  const r = await createReportsRepository({ db }).liveCandidate(projectId, id)
  if (!r) throw notFound('report not found')
  return r
}

const regressionView = (r: Regression, o?: Candidate, n?: Candidate) => ({
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
  return deps.db.write(async () => {
    const o = await liveReportById(deps.db, projectId, body.original_bug_id)
    const n = await liveReportById(deps.db, projectId, body.new_bug_id)
    const now = deps.clock.now()
    const { created, regression } = await createAnalyticsRepository({ db: deps.db }).decide({
      id: newId(),
      projectId,
      originalBugId: o.id,
      newBugId: n.id,
      createdAt: now,
      status: body.status,
      resolvedVersion: body.resolved_version ?? o.gameVersion,
      regressedVersion: body.regressed_version ?? n.gameVersion,
      decidedBy: userId,
      updatedAt: now,
    })
    return { created, regression: regressionView(regression, o, n) }
  })
}

/** `GET /regressions`: recorded decisions, newest first, optionally of one status. */
export async function listRegressions(db: Seam, projectId: string, status?: 'confirmed' | 'dismissed') {
  const rows = await createAnalyticsRepository({ db }).regressions(projectId, 500, status)
  const ids = [...new Set(rows.flatMap((r) => [r.originalBugId, r.newBugId]))]
  const byId = new Map((await createReportsRepository({ db }).candidatesByIds(ids)).map((r) => [r.id, r]))
  return rows.map((r) => regressionView(r, byId.get(r.originalBugId), byId.get(r.newBugId)))
}
