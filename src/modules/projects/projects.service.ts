import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { badRequest, forbidden } from '../../http/errors'
import { forgetSdkCallers } from '../../http/sdk-callers'
import type { Account } from '../auth/accounts.repository'
import type { User } from '../auth/auth.sessions'
import { DAY } from '../../lib/clock'
import { newId, randomBase62, sha256Hex } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import { workingAccountOf } from '../auth/accounts.service'
import { exceeds, limitOwner, PlanLimitError, PLANS, requireFeature } from '../auth/plans'
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

/** A project as lists show it. */
export function projectSummary(p: Project) {
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
export function previousKeyView(p: Pick<Project, 'previousApiKey' | 'previousApiKeyExpiresAt'>, now: Date) {
  const live = p.previousApiKey !== null && p.previousApiKeyExpiresAt !== null && p.previousApiKeyExpiresAt > now
  return { previous_api_key: live ? p.previousApiKey : null, previous_api_key_expires_at: live ? p.previousApiKeyExpiresAt!.toISOString() : null }
}
