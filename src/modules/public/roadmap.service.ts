import { and, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { notFound } from '../../http/errors'
import { reportLabels } from '../labels/labels.table'
import { reports, type Status } from '../reports/reports.table'
import type { RoadmapSettings, TrackerSettings } from '../settings/settings.schemas'
import { readSettings } from '../settings/settings.service'
import { projectBySlug, type PublicProject } from './public.service'
import type { RoadmapQuery } from './public.schemas'
import { type PublishRules, publicReportsOf } from './publication'

/** Reports per roadmap column page, most upvoted first. */
export const ROADMAP_PAGE_SIZE = 20

/** The project and its roadmap settings; 404 unless the public roadmap is enabled. */
export function enabledRoadmap(db: DbOrTx, slug: string): { project: PublicProject; settings: RoadmapSettings } {
  const project = projectBySlug(db, slug)
  const settings = readSettings(db, project.id, 'roadmap')
  if (!settings.enabled) throw notFound('public roadmap not found')
  return { project, settings }
}

/**
 * Reports on the roadmap of a project, in its shown statuses. Source `published`: every report the
 * public tracker's rules (`tracker`) publish. Source `curated`: live, not private, not unpublished,
 * and put there by the team (the `on_roadmap` flag, or the label the roadmap settings name); being
 * put on the roadmap is itself a publication, so the tracker's `publish` mode and auto-filed rule do not apply.
 */
export function onRoadmap(projectId: string, settings: Pick<RoadmapSettings, 'statuses' | 'label_id' | 'source'>, tracker: PublishRules): SQL {
  if (settings.source === 'published') return and(publicReportsOf(projectId, tracker), inArray(reports.status, settings.statuses))!
  const chosen = settings.label_id
    ? inArray(reports.seq, sql`(select ${reportLabels.reportSeq} from ${reportLabels} where ${reportLabels.labelId} = ${settings.label_id})`)
    : // A literal, so the partial reports_roadmap_idx serves it.
      sql`${reports.onRoadmap} = 1`
  // `is_private` and `published` are columns of reports_roadmap_idx: a column is read from the index alone.
  return and(eq(reports.projectId, projectId), isNull(reports.deletedAt), sql`${reports.isPrivate} = 0`, sql`coalesce(${reports.published}, 1) = 1`, inArray(reports.status, settings.statuses), chosen)!
}

/**
 * The public roadmap: its settings and one column per shown status, each paged (most upvoted first).
 * `query.page` pages the column `query.status`; the others show their first page. A card says
 * whether the public tracker shows its report (`on_tracker`), so pages link only to what exists.
 */
export function roadmapOf(db: DbOrTx, slug: string, query: RoadmapQuery = {}) {
  const { project, settings } = enabledRoadmap(db, slug)
  const tracker: TrackerSettings = readSettings(db, project.id, 'tracker')
  const where = onRoadmap(project.id, settings, tracker)
  const pageOf = (status: Status) => (query.status === status ? (query.page ?? 1) : 1)
  // Each column's page is picked on indexed columns alone (rank within each status), then read in full.
  const ranked = db
    .select({
      seq: reports.seq,
      status: reports.status,
      rank: sql<number>`row_number() over (partition by ${reports.status} order by ${reports.upvotes} desc, ${reports.seq} desc)`.as('rank'),
    })
    .from(reports)
    .where(where)
    .as('ranked')
  const first = query.status ? (pageOf(query.status) - 1) * ROADMAP_PAGE_SIZE : 0
  const window = sql`${ranked.rank} > (case when ${ranked.status} = ${query.status ?? ''} then ${first} else 0 end)
    and ${ranked.rank} <= (case when ${ranked.status} = ${query.status ?? ''} then ${first + ROADMAP_PAGE_SIZE} else ${ROADMAP_PAGE_SIZE} end)`
  const rows = db
    .select({ seq: reports.seq, reportNumber: reports.reportNumber, title: reports.title, category: reports.category, status: reports.status, upvotes: reports.upvotes, updatedAt: reports.updatedAt })
    .from(reports)
    .where(inArray(reports.seq, db.select({ seq: ranked.seq }).from(ranked).where(window)))
    .orderBy(desc(reports.upvotes), desc(reports.seq))
    .all()
  // Which cards the tracker shows (their pages exist), for these few reports only.
  const onTracker = new Set(
    tracker.enabled && rows.length
      ? db
          .select({ seq: reports.seq })
          .from(reports)
          .where(and(publicReportsOf(project.id, tracker), inArray(reports.seq, rows.map((r) => r.seq))))
          .all()
          .map((r) => r.seq)
      : [],
  )
  const totals = new Map(
    db
      .select({ status: reports.status, n: count() })
      .from(reports)
      .where(where)
      .groupBy(reports.status)
      .all()
      .map((t) => [t.status, t.n]),
  )
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
