import type { AppDeps } from '../../app-deps'
import { notFound } from '../../http/errors'
import type { RoadmapSettings, TrackerSettings } from '../settings/settings.schemas'
import { settingsOf } from '../settings/settings.service'
import { createPublicRepository, onRoadmap } from './public.repository'
import { projectBySlug, type PublicProject } from './public.service'
import type { RoadmapQuery } from './public.schemas'
import { publicReportsOf } from './public.repository'

/** Reports per roadmap column page, most upvoted first. */
export const ROADMAP_PAGE_SIZE = 20

type Deps = Pick<AppDeps, 'db'>
type RoadmapStatus = RoadmapSettings['statuses'][number]

/** The project and its roadmap settings; 404 unless the public roadmap is enabled. */
export async function enabledRoadmap(deps: Deps, slug: string): Promise<{ project: PublicProject; settings: RoadmapSettings }> {
  const project = await projectBySlug(deps, slug)
  const settings = await settingsOf(deps.db, project.id, 'roadmap')
  if (!settings.enabled) throw notFound('public roadmap not found')
  return { project, settings }
}

/**
 * The public roadmap: its settings and one column per shown status, each paged (most upvoted first).
 * `query.page` pages the column `query.status`; the others show their first page. A card says
 * whether the public tracker shows its report (`on_tracker`), so pages link only to what exists.
 */
export async function roadmapOf(deps: Deps, slug: string, query: RoadmapQuery = {}) {
  const { project, settings } = await enabledRoadmap(deps, slug)
  const tracker: TrackerSettings = await settingsOf(deps.db, project.id, 'tracker')
  const where = onRoadmap(project.id, settings, tracker)
  const pageOf = (status: RoadmapStatus) => (query.status === status ? (query.page ?? 1) : 1)
  const repo = createPublicRepository({ db: deps.db })
  const first = query.status ? (pageOf(query.status) - 1) * ROADMAP_PAGE_SIZE : 0
  const rows = await repo.roadmapRows(where, query.status, first, ROADMAP_PAGE_SIZE)
  // Which cards the tracker shows (their pages exist), for these few reports only.
  const onTracker = tracker.enabled ? await repo.shownSeqs(publicReportsOf(project.id, tracker), rows.map((r) => r.seq)) : new Set<number>()
  const totals = await repo.totalsByStatus(where)
  return {
    settings: { title: settings.title, description: settings.description, statuses: settings.statuses, show_upvotes: settings.show_upvotes },
    columns: settings.statuses.map((status) => {
      const total = totals.get(status) ?? 0
      return {
        status,
        bugs: rows
          .filter((r) => r.status === status)
          .map((r) => ({
            report_number: r.reportNumber,
            title: r.title,
            category: r.category,
            ...(settings.show_upvotes ? { upvotes: r.upvotes } : {}),
            on_tracker: onTracker.has(r.seq),
            updated_at: r.updatedAt.toISOString(),
          })),
        total,
        page: pageOf(status),
        total_pages: Math.ceil(total / ROADMAP_PAGE_SIZE),
      }
    }),
  }
}
