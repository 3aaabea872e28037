import type { Seam } from '../../db/client'
import { errorTypeMatches } from './search-filters'
import { createReportsSearchRepository } from './reports.search.repository'

/** A similar report as the API shows it. */
const similarView = (r: { reportNumber: number; title: string; status: string; priority: string; createdAt: Date }) => ({
  report_number: r.reportNumber,
  title: r.title,
  status: r.status,
  priority: r.priority,
  created_at: r.createdAt.toISOString(),
})

/** `GET /bugs/similar` and triage: up to 10 live reports whose titles share significant words with `title`, best bm25 match first. */
export async function similarTo(db: Seam, projectId: string, title: string) {
  return (await createReportsSearchRepository({ db }).similar(projectId, title)).map(similarView)
}

/** Of the project's error types `types`, those that answer `error:<name>` (search-filters.ts), at most 50. */
export const errorTypesIn = (types: string[], name: string): string[] => types.filter((e) => errorTypeMatches(e, name)).slice(0, 50)

/** The project's error classes over live reports, most common first, at most 200. */
export async function errorTypeCounts(db: Seam, projectId: string) {
  return (await createReportsSearchRepository({ db }).errorTypeCounts(projectId)).map((r) => ({ error_type: r.errorType, count: r.count }))
}
