import { dsnOf } from '../sentry/dsn'
import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { badRequest, forbidden } from '../../http/errors'
import { forgetSdkCallers } from '../../http/sdk-callers'
import type { Account, Membership } from '../auth/accounts.repository'
import type { User } from '../auth/auth.sessions'
import { DAY } from '../../lib/clock'
import { newId, randomBase62, sha256Hex } from '../../lib/ids'
import { deleteProjectActivity, recordAudit } from '../activity/activity.service'
import { workingAccountOf } from '../auth/accounts.service'
import { exceeds, limitOwner, PlanLimitError, PLANS, requireFeature } from '../billing/plans'
import { recountStorage } from '../retention/retention.stats'
import { createReportsRepository } from '../reports/reports.repository'
import { STATUSES, type Status } from '../reports/reports.types'
import { forgetProjectAccess } from '../team/project-access.service'
import { projectFileKeys } from './project-files'
import { changeSlug } from './project-slugs'
import { createProjectsRepository, type Project } from './projects.repository'
import type { CreateProjectBody, GraceDays, UpdateProjectBody } from './projects.schemas'

type ProjectDeps = Pick<AppDeps, 'db' | 'clock'>

const projectsRepo = (deps: Pick<AppDeps, 'db'>) => createProjectsRepository({ db: deps.db })

const SLUG_MAX = 60

/** `name` lower-cased with spaces as hyphens and accents dropped, reduced to [a-z0-9-]; "project" when nothing is left. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '')
  return slug || 'project'
}

/** A fresh SDK key: `sk_live_` and 40 base62 characters. */
export const newApiKey = () => `sk_live_${randomBase62(40)}`

/**
 * The slug prefix of a creator: 6 hex digits of a hash of their id. (The id's own first digits are
 * its creation time, which every user of the same day shares.) Slugs already given keep theirs.
 */
export const slugPrefix = (userId: string) => sha256Hex(userId).slice(0, 6)

// The prefix keeps slugs of different creators apart; suffixes -2, -3… settle the rest. A renamed
// project's old slug is held for its redirect, so it is skipped too.
async function uniqueSlug(db: Seam, userId: string, wanted: string, now: Date): Promise<string> {
  const base = `${slugPrefix(userId)}-${slugify(wanted)}`
  const taken = await createProjectsRepository({ db }).slugsInUse(base, now)
  if (!taken.has(base)) return base
  let n = 2
  while (taken.has(`${base}-${n}`)) n++
  return `${base}-${n}`
}

/** Creates a project in the creator's current account, within the plan's project limit. */
export async function createProject(deps: ProjectDeps, user: Pick<User, 'id' | 'currentAccountId'>, input: CreateProjectBody) {
  const now = deps.clock.now()
  return deps.db.write(async (tx) => {
    const current = await workingAccountOf(tx, user)
    if (!current) throw forbidden('you are not a member of any account')
    // A project they created would be hidden from them; the owner or an admin creates it and grants it.
    if (current.membership.projectIds) throw forbidden('you see only some projects of this account, so you cannot create projects; ask the owner or an admin')
    const plan = PLANS[current.account.plan]
    const n = await projectsRepo(deps).countInAccount(current.account.id)
    if (exceeds(n + 1, plan.limits.projects)) throw new PlanLimitError((plans) => `${limitOwner(plan, plans)} allows ${plan.limits.projects} projects`, 'create more')
    const row = {
      id: newId(),
      accountId: current.account.id,
      createdBy: user.id,
      name: input.name,
      slug: await uniqueSlug(deps.db, user.id, input.slug || input.name, now),
      description: input.description ?? '',
      websiteUrl: input.website_url ?? '',
      apiKey: newApiKey(),
      createdAt: now,
      updatedAt: now,
    }
    await projectsRepo(deps).insert(row)
    await recordAudit(tx, now, { accountId: row.accountId, projectId: row.id, actorId: user.id, action: 'project.created', target: row.id, details: { name: row.name, slug: row.slug } })
    return { id: row.id, slug: row.slug, api_key: row.apiKey }
  })
}

export type BugCounts = { total: number } & Record<Status, number>

/** Live report counts by status for `projectIds`, read from the trigger-maintained counts table. */
export async function bugCountsOf(db: Seam, projectIds: string[]): Promise<Map<string, BugCounts>> {
  const out = new Map<string, BugCounts>()
  for (const id of projectIds) out.set(id, { total: 0, ...(Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>) })
  if (projectIds.length === 0) return out
  const rows = await createReportsRepository({ db }).statusCountsOf(projectIds)
  for (const r of rows) {
    const c = out.get(r.projectId)!
    c[r.status] += r.n
    c.total += r.n
  }
  return out
}

function summary(p: Project) {
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    description: p.description,
    website_url: p.websiteUrl,
    logo_url: p.logoUrl,
    is_public: p.isPublic,
    created_at: p.createdAt.toISOString(),
  }
}

/** The projects of the account the user works in that they see, each with its live bug counts. */
export async function listProjects(deps: Pick<AppDeps, 'db'>, user: Pick<User, 'id' | 'currentAccountId'>) {
  const current = await workingAccountOf(deps.db, user)
  if (!current) return []
  const rows = await projectsRepo(deps).listInAccount(current.account.id, current.membership.projectIds)
  const counts = await bugCountsOf(deps.db, rows.map((p) => p.id))
  return rows.map((p) => ({ ...summary(p), bug_counts: counts.get(p.id)! }))
}

/** The project with settings, SDK settings, API key (and the one before while its grace runs) and Sentry DSN, stats and the caller's role. */
export async function projectDetail(db: Seam, project: Project, membership: Membership, o: { publicUrl: string; now: Date }) {
  const c = (await bugCountsOf(db, [project.id])).get(project.id)!
  return {
    ...summary(project),
    api_key: project.apiKey,
    ...previousKeyView(project, o.now),
    dsn_id: project.dsnId,
    dsn: dsnOf(o.publicUrl, project.apiKey, project.dsnId),
    created_by: project.createdBy,
    updated_at: project.updatedAt.toISOString(),
    settings: { is_public: project.isPublic, bug_grouping: project.bugGrouping },
    sdk_settings: {
      screenshot_capture: project.screenshotCapture,
      session_capture: project.sessionCapture,
      auto_file_errors: project.autoFileErrors,
      capture_editor_errors: project.captureEditorErrors,
      capture_warnings: project.captureWarnings,
    },
    stats: {
      total_reports: c.total,
      open_reports: c.open,
      in_progress_reports: c.in_progress,
      resolved_reports: c.resolved,
      closed_reports: c.closed,
      wont_fix_reports: c.wont_fix,
      first_report_at: project.firstReportAt?.toISOString() ?? null,
    },
    role: membership.role,
  }
}

const columnOf = {
  name: 'name',
  slug: 'slug',
  description: 'description',
  website_url: 'websiteUrl',
  logo_url: 'logoUrl',
  is_public: 'isPublic',
  screenshot_capture: 'screenshotCapture',
  session_capture: 'sessionCapture',
  auto_file_errors: 'autoFileErrors',
  capture_editor_errors: 'captureEditorErrors',
  capture_warnings: 'captureWarnings',
  bug_grouping: 'bugGrouping',
} as const satisfies Record<keyof UpdateProjectBody, keyof Project>

/**
 * Applies the given settings and answers the project's slug (a new one when it changed); turning on
 * session capture needs the plan that carries it. A new slug is taken as given when free on this
 * server (project-slugs.ts); the old one redirects for 90 days.
 */
export async function updateProject(deps: ProjectDeps, ctx: { project: Project; account: Account; userId: string }, input: UpdateProjectBody): Promise<{ slug: string }> {
  const fields = (Object.keys(columnOf) as (keyof UpdateProjectBody)[]).filter((k) => input[k] !== undefined)
  if (fields.length === 0) throw badRequest('no valid fields to update')
  if (input.session_capture === true) requireFeature(ctx.account.plan, 'session_capture')
  const now = deps.clock.now()
  const set: Partial<Project> = { updatedAt: now }
  const changes: Record<string, [unknown, unknown]> = {}
  for (const f of fields) {
    const col = columnOf[f]
    const next = input[f]
    if (f !== 'slug') (set as Record<string, unknown>)[col] = next
    if (ctx.project[col] !== next) changes[f] = [ctx.project[col], next]
  }
  await deps.db.write(async (tx) => {
    if (input.slug !== undefined) await changeSlug(deps.db, ctx.project, input.slug, now)
    await projectsRepo(deps).update(ctx.project.id, set)
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, now, { accountId: ctx.account.id, projectId: ctx.project.id, actorId: ctx.userId, action: 'project.updated', target: ctx.project.id, details: { changes } })
    }
  })
  forgetSdkCallers(deps.db)
  return { slug: input.slug ?? ctx.project.slug }
}

/**
 * Deletes the project with its reports (and, by cascade, everything hanging off them), then its
 * stored files. Only the account owner or the project's creator may; quota counters stay as they are.
 */
export async function deleteProject(deps: Pick<AppDeps, 'db' | 'clock' | 'files'>, ctx: { project: Project; membership: Membership; userId: string }) {
  if (ctx.membership.role !== 'owner' && ctx.project.createdBy !== ctx.userId) {
    throw forbidden('only the account owner or the project creator can delete this project')
  }
  const now = deps.clock.now()
  const keys = await deps.db.write(async (tx) => {
    const keys = await projectFileKeys(deps.db, ctx.project.id)
    await projectsRepo(deps).remove(ctx.project.id)
    await recountStorage(tx, ctx.project.accountId)
    await deleteProjectActivity(tx, ctx.project.id)
    await forgetProjectAccess(deps.db, ctx.project.accountId, ctx.project.id)
    await recordAudit(tx, now, {
      accountId: ctx.project.accountId,
      projectId: ctx.project.id,
      actorId: ctx.userId,
      action: 'project.deleted',
      target: ctx.project.id,
      details: { name: ctx.project.name, slug: ctx.project.slug },
    })
    return keys
  })
  forgetSdkCallers(deps.db)
  // Files go only once the rows are gone, so a failed delete never leaves reports pointing at nothing.
  await deps.files.remove(deps.db, keys)
}

/**
 * Replaces the SDK key. With a grace period (days) the old key keeps working until it ends, because
 * shipped builds cannot all be updated at once; without one it stops at once. Only the key being
 * replaced gets a grace: one still in its grace from an earlier rotation stops now.
 */
export async function rotateApiKey(deps: ProjectDeps, ctx: { project: Project; userId: string; graceDays: GraceDays }) {
  const now = deps.clock.now()
  const apiKey = newApiKey()
  const previous = ctx.graceDays > 0 ? { previousApiKey: ctx.project.apiKey, previousApiKeyExpiresAt: new Date(now.getTime() + ctx.graceDays * DAY) } : { previousApiKey: null, previousApiKeyExpiresAt: null }
  await deps.db.write(async (tx) => {
    await projectsRepo(deps).update(ctx.project.id, { apiKey, ...previous, updatedAt: now })
    await recordAudit(tx, now, {
      accountId: ctx.project.accountId,
      projectId: ctx.project.id,
      actorId: ctx.userId,
      action: 'project.key_rotated',
      target: ctx.project.id,
      details: { grace_days: ctx.graceDays },
    })
  })
  forgetSdkCallers(deps.db)
  return { api_key: apiKey, ...previousKeyView(previous, now) }
}

/** The key before the last rotation while its grace runs, else nulls. */
function previousKeyView(p: Pick<Project, 'previousApiKey' | 'previousApiKeyExpiresAt'>, now: Date) {
  const live = p.previousApiKey !== null && p.previousApiKeyExpiresAt !== null && p.previousApiKeyExpiresAt > now
  return { previous_api_key: live ? p.previousApiKey : null, previous_api_key_expires_at: live ? p.previousApiKeyExpiresAt!.toISOString() : null }
}
