import type { Seam } from '../../db/client'
import type { Project } from '../projects/projects.repository'
import { liveReport } from '../reports/project-reports'
import { createIngestRepository } from './ingest.repository'

/** Values listed at most per tag key; `count` over all of them is the key's total. */
export const MAX_TAG_FACET_VALUES = 10

/**
 * `GET /bugs/{number}/tags`: the report's tag facet, as Sentry and GlitchTip show it: each key its
 * occurrences carried (the key most occurrences carry first), with its top values and how many
 * occurrences had each, most first (report-tags.ts says where tags come from).
 */
export async function reportTagFacet(db: Seam, project: Project, number: string) {
  const report = await liveReport(db, project.id, number)
  const keys = new Map<string, { key: string; count: number; values: { value: string; count: number }[] }>()
  for (const r of await createIngestRepository({ db }).tagCounts(report.id)) {
    const k = keys.get(r.key) ?? { key: r.key, count: 0, values: [] }
    k.count += r.n
    k.values.push({ value: r.value, count: r.n })
    keys.set(r.key, k)
  }
  const tags = [...keys.values()]
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
    .map((k) => ({ ...k, values: k.values.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value)).slice(0, MAX_TAG_FACET_VALUES) }))
  return { tags }
}
