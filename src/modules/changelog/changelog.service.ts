import type { AppDeps } from '../../app-deps'
import { badRequest, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import { projectBySlug } from '../public/public.service'
import { publicReportsOf } from '../public/public.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { CATEGORIES, type Category } from '../reports/reports.types'
import { settingsOf } from '../settings/settings.service'
import type { CreateEntry, UpdateEntry } from './changelog.schemas'
import { type ChangelogEntry as Entry, createChangelogRepository } from './changelog.repository'

export const PUBLISHED_LIMIT = 50
/** Reports listed in one auto-generated draft. */
const AUTO_GENERATE_LIMIT = 500
const MAX_BODY = 50_000

type Project = { id: string; accountId: string }
type Deps = Pick<AppDeps, 'db' | 'clock'>

const publicEntry = (e: Entry) => ({ id: e.id, title: e.title, body: e.body, version: e.version, published_at: e.publishedAt?.toISOString() ?? null })

const teamEntry = (e: Entry) => ({ ...publicEntry(e), created_at: e.createdAt.toISOString(), updated_at: e.updatedAt.toISOString() })

const changelog = (deps: Pick<AppDeps, 'db'>) => createChangelogRepository({ db: deps.db })

/** Up to 50 published entries of a project, newest first; 404 for an unknown project. */
export async function publishedEntries(deps: Pick<AppDeps, 'db'>, slug: string) {
  const project = await projectBySlug(deps, slug)
  return (await changelog(deps).published(project.id, PUBLISHED_LIMIT)).map(publicEntry)
}

/** Every entry of a project, drafts included, newest first. */
export async function allEntries(deps: Pick<AppDeps, 'db'>, projectId: string) {
  return (await changelog(deps).all(projectId)).map(teamEntry)
}

function insertEntry(deps: Deps, project: Project, actorId: string, input: CreateEntry): Promise<Entry> {
  const now = deps.clock.now()
  return deps.db.write(async (tx) => {
    const entry = await changelog(deps).insert({
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
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'changelog.created', target: entry.id, details: { published: !!input.publish } })
    return entry
  })
}

/** Adds an entry, published at once when `publish` is true, else a draft. */
export async function createEntry(deps: Deps, project: Project, actorId: string, input: CreateEntry): Promise<{ id: string }> {
  return { id: (await insertEntry(deps, project, actorId, input)).id }
}

/**
 * Changes the fields sent; `publish: true` publishes a draft (an entry already published keeps its
 * date), `publish: false` takes it back to draft. 400 without any field, 404 for another project's entry.
 */
export async function updateEntry(deps: Deps, project: Project, actorId: string, entryId: string, input: UpdateEntry) {
  const fields = Object.keys(input).filter((k) => input[k as keyof UpdateEntry] !== undefined)
  if (fields.length === 0) throw badRequest('no valid fields to update')
  const now = deps.clock.now()
  const repo = changelog(deps)
  return deps.db.write(async (tx) => {
    const current = await repo.find(project.id, entryId)
    if (!current) throw notFound('changelog entry not found')
    const publishedAt = input.publish === undefined ? current.publishedAt : input.publish ? (current.publishedAt ?? now) : null
    const entry = await repo.update(entryId, { title: input.title, body: input.body, version: input.version, publishedAt, updatedAt: now })
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'changelog.updated', target: entryId, details: { fields } })
    return teamEntry(entry)
  })
}

/** Deletes an entry; 404 for another project's entry. */
export async function deleteEntry(deps: Deps, project: Project, actorId: string, entryId: string): Promise<void> {
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    if (!(await changelog(deps).remove(project.id, entryId))) throw notFound('changelog entry not found')
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'changelog.deleted', target: entryId })
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
export async function autoGenerate(deps: Deps, project: Project, actorId: string) {
  const since = await changelog(deps).lastPublishedAt(project.id)
  // Only reports the public pages may show: a published changelog is public.
  const visible = publicReportsOf(project.id, await settingsOf(deps.db, project.id, 'tracker'))
  const resolved = await createReportsRepository({ db: deps.db }).resolvedSince(visible, since, AUTO_GENERATE_LIMIT)
  if (resolved.length === 0) throw badRequest('nothing resolved since the last entry')
  const sections = CATEGORIES.filter((c) => resolved.some((r) => r.category === c)).map(
    (c) => `## ${CATEGORY_HEADINGS[c]}\n${resolved.filter((r) => r.category === c).map((r) => `- #${r.number} ${r.title}`).join('\n')}`,
  )
  let body = sections.join('\n\n')
  // Long titles could pass the body limit; cut at a line end so no line is half-listed.
  if (body.length > MAX_BODY) body = body.slice(0, body.lastIndexOf('\n', MAX_BODY))
  const day = deps.clock.now().toISOString().slice(0, 10)
  const entry = await insertEntry(deps, project, actorId, { title: `Bug fixes ${day}`, body })
  return teamEntry(entry)
}
