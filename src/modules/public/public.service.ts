import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { notFound } from '../../http/errors'
import { users } from '../auth/auth.table'
import { comments } from '../comments/comments.table'
import { projects } from '../projects/projects.table'
import { translateSearch } from '../reports/fts-query'
import { COUNT_CAP } from '../reports/reports.list'
import { reports } from '../reports/reports.table'
import type { TrackerSettings } from '../settings/settings.schemas'
import { readSettings } from '../settings/settings.service'
import { PUBLIC_TRACKER_INDEX, PUBLISHED_INDEX } from './public.indexes'
import type { TrackerQuery } from './public.schemas'
import { publicReportsOf } from './publication'

export const TRACKER_PAGE_SIZE = 25

export type PublicProject = { id: string; accountId: string }

const findProject = (db: DbOrTx, slug: string): PublicProject | undefined =>
  db.select({ id: projects.id, accountId: projects.accountId }).from(projects).where(eq(projects.slug, slug)).get()

/** Name and visibility of the project behind a public page (titles, the report form), or undefined; never its key. */
export const publicProjectInfo = (db: DbOrTx, slug: string): (PublicProject & { name: string; isPublic: boolean }) | undefined =>
  db.select({ id: projects.id, accountId: projects.accountId, name: projects.name, isPublic: projects.isPublic }).from(projects).where(eq(projects.slug, slug)).get()

/** The project behind a public page, or 404. */
export function projectBySlug(db: DbOrTx, slug: string): PublicProject {
  const p = findProject(db, slug)
  if (!p) throw notFound('project not found')
  return p
}

/** The project and its tracker settings; 404 unless the public tracker is enabled. */
export function enabledTracker(db: DbOrTx, slug: string): { project: PublicProject; settings: TrackerSettings } {
  const project = findProject(db, slug)
  const settings = project && readSettings(db, project.id, 'tracker')
  if (!project || !settings?.enabled) throw notFound('public tracker not found')
  return { project, settings }
}

// Spelled out with table names: inside the subquery an unqualified "id" would mean the comment's.
const publicCommentCount = sql<number>`(select count(*) from "comments" where "comments"."report_id" = "reports"."id" and "comments"."is_internal" = 0)`

const publicColumns = {
  reportNumber: reports.reportNumber,
  title: reports.title,
  description: reports.description,
  category: reports.category,
  status: reports.status,
  priority: reports.priority,
  upvotes: reports.upvotes,
  createdAt: reports.createdAt,
  updatedAt: reports.updatedAt,
  commentCount: publicCommentCount,
}

interface PublicRow {
  reportNumber: number
  title: string
  description: string
  category: string
  status: string
  priority: string
  upvotes: number
  createdAt: Date
  updatedAt: Date
  commentCount: number
}

/**
 * The description without the `--- Stack Trace ---` and `--- Recent Logs ---` sections that game
 * SDKs append to auto-filed errors: file paths and log lines are the studio's, not the players'.
 */
export function publicDescription(description: string): string {
  const cut = description.search(/^-{3} (?:Stack Trace|Recent Logs) -{3}/m)
  return cut === -1 ? description : description.slice(0, cut).trimEnd()
}

/** The player-visible fields of a report; category and priority only when the tracker shows them. */
function publicBug(r: PublicRow, s: TrackerSettings) {
  return {
    report_number: r.reportNumber,
    title: r.title,
    description: publicDescription(r.description),
    ...(s.show_categories ? { category: r.category } : {}),
    status: r.status,
    ...(s.show_priority ? { priority: r.priority } : {}),
    upvotes: r.upvotes,
    comment_count: Number(r.commentCount),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }
}

/** The tracker's settings players may read: not `enabled`, nor the team's publishing rules. */
function publicTrackerSettings({ enabled: _, publish: _p, include_auto_filed: _a, ...rest }: TrackerSettings) {
  return rest
}

// Named, since the planner otherwise takes the team's upvotes index for the order and reads every
// row from the table to check `is_private`; these answer from the index. `manual` reads the small
// index of published reports.
const publicIndex = (s: TrackerSettings) => sql`${reports} indexed by ${sql.raw(s.publish === 'manual' ? PUBLISHED_INDEX : PUBLIC_TRACKER_INDEX)}`

/**
 * One page of the public tracker: most upvoted first, then newest (filing order); search and category
 * filters only where allowed. The total is counted up to `countCap` (the HTML page asks for less).
 */
export function listTracker(db: DbOrTx, slug: string, query: TrackerQuery, countCap = COUNT_CAP) {
  const { project, settings } = enabledTracker(db, slug)
  const conds: SQL[] = [publicReportsOf(project.id, settings)]
  if (query.status) conds.push(eq(reports.status, query.status))
  if (query.category && settings.show_categories) conds.push(eq(reports.category, query.category))
  // The team list's query language (words, "phrases", prefix*, -exclusions), which never yields an FTS syntax error.
  const fts = settings.allow_search && query.q ? translateSearch(query.q) : null
  if (fts?.match) conds.push(sql`${reports.seq} in (select rowid from reports_fts where reports_fts match ${fts.match})`)
  if (fts?.excludeOnly) conds.push(sql`${reports.seq} not in (select rowid from reports_fts where reports_fts match ${fts.excludeOnly})`)
  const where = and(...conds)
  const page = query.page ?? 1
  // The page's rows are picked first on indexed columns alone (reports_public_idx gives the
  // order), then read in full: selecting every column, the comment count included, for each candidate
  // before the sort cost ~300 ms at 100,000 reports. Ties go to the newest: seq follows filing order.
  // A search is driven by its set of matches instead (through the rowid), which the index cannot give.
  const source = fts?.match ? reports : publicIndex(settings)
  const pageSeqs = db
    .select({ seq: sql<number>`${reports.seq}` })
    .from(source)
    .where(where)
    .orderBy(desc(reports.upvotes), desc(reports.seq))
    .limit(TRACKER_PAGE_SIZE)
    .offset((page - 1) * TRACKER_PAGE_SIZE)
  const rows = db.select(publicColumns).from(reports).where(inArray(reports.seq, pageSeqs)).orderBy(desc(reports.upvotes), desc(reports.seq)).all()
  // Counted up to COUNT_CAP + 1 rows, as the team list does: an exact COUNT read every public report
  // of the project (~100 ms at 100,000). Past the cap the answer says `total: 10000, total_capped: true`.
  const matching = db.select({ one: sql`1` }).from(source).where(where).limit(countCap + 1).as('matching')
  const counted = db.select({ n: count() }).from(matching).get()!.n
  const total = Math.min(counted, countCap)
  return {
    settings: publicTrackerSettings(settings),
    bugs: rows.map((r) => publicBug(r, settings)),
    total,
    ...(counted > countCap ? { total_capped: true } : {}),
    page,
    limit: TRACKER_PAGE_SIZE,
    total_pages: Math.ceil(total / TRACKER_PAGE_SIZE),
  }
}

/** One public report with its public comments, authors shown by display name only; 404 for one the public pages do not show. */
export function trackerBug(db: DbOrTx, slug: string, reportNumber: number) {
  const { project, settings } = enabledTracker(db, slug)
  const row = db
    .select({ ...publicColumns, id: reports.id })
    .from(reports)
    .where(and(publicReportsOf(project.id, settings), eq(reports.reportNumber, reportNumber)))
    .get()
  if (!row) throw notFound('bug not found')
  const thread = db
    .select({ id: comments.id, body: comments.body, authorName: sql<string | null>`coalesce(nullif(${users.displayName}, ''), ${users.name})`, createdAt: comments.createdAt })
    .from(comments)
    .leftJoin(users, eq(users.id, comments.authorId))
    .where(and(eq(comments.reportId, row.id), eq(comments.isInternal, false)))
    .orderBy(comments.createdAt, comments.id)
    .all()
  return {
    ...publicBug(row, settings),
    comments: thread.map((c) => ({ id: c.id, body: c.body, author_name: c.authorName, created_at: c.createdAt.toISOString() })),
  }
}
