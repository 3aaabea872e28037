import { and, asc, inArray, lte, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { notFound } from '../../http/errors'
import { reports } from '../reports/reports.table'
import type { RoadmapSettings } from '../settings/settings.schemas'
import { readSettings } from '../settings/settings.service'
import { projectBySlug, type PublicProject, publicReportsOf } from './public.service'

/** Reports shown per roadmap column, most upvoted first. */
export const ROADMAP_COLUMN_CAP = 100

/** The project and its roadmap settings; 404 unless the public roadmap is enabled. */
export function enabledRoadmap(db: DbOrTx, slug: string): { project: PublicProject; settings: RoadmapSettings } {
  const project = projectBySlug(db, slug)
  const settings = readSettings(db, project.id, 'roadmap')
  if (!settings.enabled) throw notFound('public roadmap not found')
  return { project, settings }
}

/** The public roadmap: its settings and one column per shown status, each capped, upvote counts only when shown. */
export function roadmapOf(db: DbOrTx, slug: string) {
  const { project, settings } = enabledRoadmap(db, slug)
  // One query for all columns: rank within each status and keep the top of each.
  const ranked = db
    .select({
      reportNumber: reports.reportNumber,
      title: reports.title,
      category: reports.category,
      status: reports.status,
      upvotes: reports.upvotes,
      updatedAt: reports.updatedAt,
      rank: sql<number>`row_number() over (partition by ${reports.status} order by ${reports.upvotes} desc, ${reports.updatedAt} desc, ${reports.seq} desc)`.as('rank'),
    })
    .from(reports)
    .where(and(publicReportsOf(project.id), inArray(reports.status, settings.statuses)))
    .as('ranked')
  const rows = db.select().from(ranked).where(lte(ranked.rank, ROADMAP_COLUMN_CAP)).orderBy(asc(ranked.status), asc(ranked.rank)).all()
  return {
    settings: { title: settings.title, description: settings.description, statuses: settings.statuses, show_upvotes: settings.show_upvotes },
    columns: settings.statuses.map((status) => ({
      status,
      bugs: rows
        .filter((r) => r.status === status)
        .map((r) => ({
          report_number: r.reportNumber,
          title: r.title,
          category: r.category,
          ...(settings.show_upvotes ? { upvotes: r.upvotes } : {}),
          updated_at: new Date(r.updatedAt).toISOString(),
        })),
    })),
  }
}
