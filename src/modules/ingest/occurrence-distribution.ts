import type { Seam } from '../../db/client'
import type { Project } from '../projects/projects.repository'
import { newestFirst } from '../../lib/semver'
import { liveReport } from '../reports/project-reports'
import { createIngestRepository } from './ingest.repository'

/** Values listed at most per dimension; `total` minus their counts is the rest. */
export const MAX_DISTRIBUTION_VALUES = 20

interface Share {
  value: string
  count: number
}

/**
 * `GET /bugs/{number}/occurrences/distribution`: how a report's occurrences spread over game
 * versions (newest version first) and platforms (most first), `''` for occurrences that named none.
 * One GROUP BY over the report's occurrences, found through their (report_id, seq) index: the
 * version × platform pairs are few even when the occurrences are many.
 */
export async function occurrenceDistribution(db: Seam, project: Project, number: string) {
  const report = await liveReport(db, project.id, number)
  const pairs = await createIngestRepository({ db }).versionPlatformPairs(report.id)
  const versions = new Map<string, { version: string; count: number; firstSeen: number }>()
  const platforms = new Map<string, number>()
  let total = 0
  for (const p of pairs) {
    total += p.n
    const v = versions.get(p.version) ?? { version: p.version, count: 0, firstSeen: p.first ?? 0 }
    v.count += p.n
    v.firstSeen = Math.min(v.firstSeen, p.first ?? 0)
    versions.set(p.version, v)
    platforms.set(p.platform, (platforms.get(p.platform) ?? 0) + p.n)
  }
  // Named versions newest first (semantic order, else the order they first appeared in), unnamed last.
  const named = newestFirst([...versions.values()].filter((v) => v.version !== ''))
  const unnamed = versions.get('')
  const versionShares: Share[] = [...named, ...(unnamed ? [unnamed] : [])].map((v) => ({ value: v.version, count: v.count }))
  const platformShares: Share[] = [...platforms].map(([value, n]) => ({ value, count: n })).sort((a, b) => b.count - a.count || (a.value === '' ? 1 : b.value === '' ? -1 : a.value.localeCompare(b.value)))
  return { total, versions: versionShares.slice(0, MAX_DISTRIBUTION_VALUES), platforms: platformShares.slice(0, MAX_DISTRIBUTION_VALUES) }
}
