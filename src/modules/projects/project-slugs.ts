import { and, eq, gt } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { AppError, conflict } from '../../http/errors'
import { DAY } from '../../lib/clock'
import { projectSlugRedirects, projects } from './projects.table'

/** How long a renamed project's old URLs redirect to the new ones (and nobody else may take the old slug). */
export const SLUG_REDIRECT_MS = 90 * DAY

/** A slug held as a redirect until `expiresAt` counts as taken. */
const liveRedirect = (slug: string, now: Date) => and(eq(projectSlugRedirects.slug, slug), gt(projectSlugRedirects.expiresAt, now))

/** Whether `slug` is free on this server: no project has it and no renamed project's old URLs hold it (other than `projectId`'s own). */
export function slugIsFree(db: DbOrTx, slug: string, now: Date, projectId?: string): boolean {
  if (db.select({ id: projects.id }).from(projects).where(eq(projects.slug, slug)).get()) return false
  const held = db.select({ projectId: projectSlugRedirects.projectId }).from(projectSlugRedirects).where(liveRedirect(slug, now)).get()
  return !held || held.projectId === projectId
}

/**
 * Gives the project the slug `wanted` as it is (no creator prefix) when it is free on this server, else
 * 409; the old slug redirects to the new one for 90 days. Taking back one of its own old slugs ends
 * that slug's redirect.
 */
export function changeSlug(tx: DbOrTx, project: { id: string; slug: string }, wanted: string, now: Date): void {
  if (wanted === project.slug) return
  if (!slugIsFree(tx, wanted, now, project.id)) throw conflict(`the slug ${wanted} is taken on this server; choose another`)
  // A row left from an ended redirect (of any project) no longer counts; the new slug's row goes.
  tx.delete(projectSlugRedirects).where(eq(projectSlugRedirects.slug, wanted)).run()
  tx.update(projects).set({ slug: wanted }).where(eq(projects.id, project.id)).run()
  const expiresAt = new Date(now.getTime() + SLUG_REDIRECT_MS)
  tx.insert(projectSlugRedirects)
    .values({ slug: project.slug, projectId: project.id, expiresAt, createdAt: now })
    .onConflictDoUpdate({ target: projectSlugRedirects.slug, set: { projectId: project.id, expiresAt, createdAt: now } })
    .run()
}

/** The project an old slug now redirects to (its id, current slug and account), while the redirect lasts. */
export function movedSlug(db: DbOrTx, slug: string, now: Date): { id: string; slug: string; accountId: string } | undefined {
  return db
    .select({ id: projects.id, slug: projects.slug, accountId: projects.accountId })
    .from(projectSlugRedirects)
    .innerJoin(projects, eq(projects.id, projectSlugRedirects.projectId))
    .where(liveRedirect(slug, now))
    .get()
}

/**
 * The answer to a request for an old slug: 301 for GET and HEAD (browsers and crawlers follow and
 * remember it), 308 for other methods (kept with their body), `Location` the same URL with the new slug.
 */
export function slugMoved(o: { method: string; url: string; prefix: string; from: string; to: string }): AppError {
  const url = new URL(o.url)
  url.pathname = url.pathname.replace(`${o.prefix}${encodeURIComponent(o.from)}`, `${o.prefix}${encodeURIComponent(o.to)}`)
  const status = o.method === 'GET' || o.method === 'HEAD' ? 301 : 308
  return new AppError(status, `this project's address changed: its slug is now ${o.to}`, { location: `${url.pathname}${url.search}` }, { slug: o.to })
}
