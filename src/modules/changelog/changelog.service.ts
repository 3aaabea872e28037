import { and, desc, eq, gt, inArray, isNotNull, max, type SQL } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { badRequest, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import { projectBySlug } from '../public/public.service'
import { publicReportsOf } from '../public/publication'
import { CATEGORIES, type Category, reports } from '../reports/reports.table'
import { readSettings } from '../settings/settings.service'
import type { CreateEntry, UpdateEntry } from './changelog.schemas'
import { changelogEntries } from './changelog.table'

export const PUBLISHED_LIMIT = 50
/** Reports listed in one auto-generated draft. */
const AUTO_GENERATE_LIMIT = 500
const MAX_BODY = 50_000

type Entry = typeof changelogEntries.$inferSelect
type Project = { id: string; accountId: string }
type Deps = Pick<AppDeps, 'db' | 'clock'>

const publicEntry = (e: Entry) => ({ id: e.id, title: e.title, body: e.body, version: e.version, published_at: e.publishedAt?.toISOString() ?? null })

const teamEntry = (e: Entry) => ({ ...publicEntry(e), created_at: e.createdAt.toISOString(), updated_at: e.updatedAt.toISOString() })

/** Up to 50 published entries of a project, newest first; 404 for an unknown project. */
export function publishedEntries(db: DbOrTx, slug: string) {
  const project = projectBySlug(db, slug)
  return db
    .select()
    .from(changelogEntries)
    .where(and(eq(changelogEntries.projectId, project.id), isNotNull(changelogEntries.publishedAt)))
    .orderBy(desc(changelogEntries.publishedAt), desc(changelogEntries.createdAt))
    .limit(PUBLISHED_LIMIT)
    .all()
    .map(publicEntry)
}

/** Every entry of a project, drafts included, newest first. */
export function allEntries(db: DbOrTx, projectId: string) {
  return db.select().from(changelogEntries).where(eq(changelogEntries.projectId, projectId)).orderBy(desc(changelogEntries.createdAt), desc(changelogEntries.id)).all().map(teamEntry)
}

function insertEntry(deps: Deps, project: Project, actorId: string, input: CreateEntry): Entry {
  const now = deps.clock.now()
  return deps.db.transaction((tx) => {
    const [entry] = tx
      .insert(changelogEntries)
      .values({
        id: newId(),
        projectId: project.id,
        title: input.title,
        body: input.body ?? '',
        version: input.version ?? '',
        publishedAt: input.publish ? now : null,
        createdBy: actorId,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .all()
    recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'changelog.created', target: entry!.id, details: { published: !!input.publish } })
    return entry!
  })
}

/** Adds an entry, published at once when `publish` is true, else a draft. */
export function createEntry(deps: Deps, project: Project, actorId: string, input: CreateEntry): { id: string } {
  return { id: insertEntry(deps, project, actorId, input).id }
}

function entryWhere(project: Project, entryId: string): SQL {
  return and(eq(changelogEntries.projectId, project.id), eq(changelogEntries.id, entryId))!
}

/**
 * Changes the fields sent; `publish: true` publishes a draft (an entry already published keeps its
 * date), `publish: false` takes it back to draft. 400 without any field, 404 for another project's entry.
 */
export function updateEntry(deps: Deps, project: Project, actorId: string, entryId: string, input: UpdateEntry) {
  const fields = Object.keys(input).filter((k) => input[k as keyof UpdateEntry] !== undefined)
  if (fields.length === 0) throw badRequest('no valid fields to update')
  const now = deps.clock.now()
  return deps.db.transaction((tx) => {
    const current = tx.select().from(changelogEntries).where(entryWhere(project, entryId)).get()
    if (!current) throw notFound('changelog entry not found')
    const publishedAt = input.publish === undefined ? current.publishedAt : input.publish ? (current.publishedAt ?? now) : null
    const [entry] = tx
      .update(changelogEntries)
      .set({ title: input.title, body: input.body, version: input.version, publishedAt, updatedAt: now })
      .where(eq(changelogEntries.id, entryId))
      .returning()
      .all()
    recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'changelog.updated', target: entryId, details: { fields } })
    return teamEntry(entry!)
  })
}

/** Deletes an entry; 404 for another project's entry. */
export function deleteEntry(deps: Deps, project: Project, actorId: string, entryId: string): void {
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    const gone = tx.delete(changelogEntries).where(entryWhere(project, entryId)).returning({ id: changelogEntries.id }).all()
    if (gone.length === 0) throw notFound('changelog entry not found')
    recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'changelog.deleted', target: entryId })
  })
}

const CATEGORY_HEADINGS: Record<Category, string> = {
  crash: 'Crash',
  visual: 'Visual',
  gameplay: 'Gameplay',
  performance: 'Performance',
  audio: 'Audio',
  ui: 'UI',
  network: 'Network',
  other: 'Other',
}

/**
 * Drafts an entry listing the public reports resolved or closed since the last published entry
 * (all time before the first one), grouped by category; 400 when there is nothing to list.
 * "Resolved since" is read as: now resolved or closed, and last changed after that entry.
 */
export function autoGenerate(deps: Deps, project: Project, actorId: string) {
  const since = deps.db
    .select({ at: max(changelogEntries.publishedAt) })
    .from(changelogEntries)
    .where(eq(changelogEntries.projectId, project.id))
    .get()?.at
  const resolved = deps.db
    .select({ number: reports.reportNumber, title: reports.title, category: reports.category })
    .from(reports)
    .where(
      // Only reports the public pages may show: a published changelog is public.
      and(publicReportsOf(project.id, readSettings(deps.db, project.id, 'tracker')), inArray(reports.status, ['resolved', 'closed']), since ? gt(reports.updatedAt, since) : undefined),
    )
    .orderBy(reports.reportNumber)
    .limit(AUTO_GENERATE_LIMIT)
    .all()
  if (resolved.length === 0) throw badRequest('nothing resolved since the last entry')
  const sections = CATEGORIES.filter((c) => resolved.some((r) => r.category === c)).map(
    (c) => `## ${CATEGORY_HEADINGS[c]}\n${resolved.filter((r) => r.category === c).map((r) => `- #${r.number} ${r.title}`).join('\n')}`,
  )
  let body = sections.join('\n\n')
  // Long titles could pass the body limit; cut at a line end so no line is half-listed.
  if (body.length > MAX_BODY) body = body.slice(0, body.lastIndexOf('\n', MAX_BODY))
  const day = deps.clock.now().toISOString().slice(0, 10)
  const entry = insertEntry(deps, project, actorId, { title: `Bug fixes ${day}`, body })
  return teamEntry(entry)
}
