import type { AppDeps } from '../../app-deps'
import { notFound } from '../../http/errors'
import { createAuthRepository } from '../auth/auth.repository'
import { createCommentsRepository } from '../comments/comments.repository'
import { createProjectsRepository, type PublicProjectRow } from '../projects/projects.repository'
import { COUNT_CAP } from '../reports/reports.list'
import type { TrackerSettings } from '../settings/settings.schemas'
import { settingsOf } from '../settings/settings.service'
import { createPublicRepository, type PublicRow, type ReportRef } from './public.repository'
import type { TrackerQuery } from './public.schemas'
import { publicReportsOf } from './public.repository'
import type { PublishRules } from '../reports/report-publication'

export const TRACKER_PAGE_SIZE = 25

export type PublicProject = { id: string; accountId: string }

type Deps = Pick<AppDeps, 'db'>

/** Name and visibility of the project behind a public page (titles, the report form), or undefined; never its key. */
export const publicProjectInfo = (deps: Deps, slug: string): Promise<PublicProjectRow | undefined> => createProjectsRepository({ db: deps.db }).bySlug(slug)

/** The project behind a public page, or 404. */
export async function projectBySlug(deps: Deps, slug: string): Promise<PublicProjectRow> {
  const p = await publicProjectInfo(deps, slug)
  if (!p) throw notFound('project not found')
  return p
}

/** The project and its tracker settings; 404 unless the public tracker is enabled. */
export async function enabledTracker(deps: Deps, slug: string): Promise<{ project: PublicProjectRow; settings: TrackerSettings }> {
  const project = await publicProjectInfo(deps, slug)
  const settings = project && (await settingsOf(deps.db, project.id, 'tracker'))
  if (!project || !settings?.enabled) throw notFound('public tracker not found')
  return { project, settings }
}

/** Whether the public tracker's rules show the report `which` names (by number or id), e.g. to link to its page. */
export const isPublicReport = (deps: Deps, projectId: string, rules: PublishRules, which: ReportRef): Promise<boolean> =>
  createPublicRepository({ db: deps.db }).isShown(projectId, rules, which)

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

/**
 * One page of the public tracker: most upvoted first, then newest (filing order); search and category
 * filters only where allowed. The total is counted up to `countCap` (the HTML page asks for less).
 */
export async function listTracker(deps: Deps, slug: string, query: TrackerQuery, countCap = COUNT_CAP) {
  const { project, settings } = await enabledTracker(deps, slug)
  const page = query.page ?? 1
  const { rows, counted } = await createPublicRepository({ db: deps.db }).trackerPage({
    projectId: project.id,
    rules: settings,
    status: query.status,
    category: settings.show_categories ? query.category : undefined,
    // The team list's query language (words, "phrases", prefix*, -exclusions), which never yields an FTS syntax error.
    search: settings.allow_search && query.q ? query.q : null,
    page,
    pageSize: TRACKER_PAGE_SIZE,
    countCap,
  })
  // Past the cap the answer says `total: 10000, total_capped: true`.
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
export async function trackerBug(deps: Deps, slug: string, reportNumber: number) {
  const { project, settings } = await enabledTracker(deps, slug)
  const row = await createPublicRepository({ db: deps.db }).publicReport(publicReportsOf(project.id, settings), { number: reportNumber })
  if (!row) throw notFound('bug not found')
  const thread = await createCommentsRepository({ db: deps.db }).publicOf(row.id)
  const names = await createAuthRepository({ db: deps.db }).publicNamesOf(thread.flatMap((c) => (c.authorId ? [c.authorId] : [])))
  return {
    ...publicBug(row, settings),
    comments: thread.map((c) => ({ id: c.id, body: c.body, author_name: names.get(c.authorId ?? '') ?? null, created_at: c.createdAt.toISOString() })),
  }
}
