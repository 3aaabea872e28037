import type { Seam } from '../../db/client'
import { AppError, conflict } from '../../http/errors'
import { DAY } from '../../lib/clock'
import { createProjectsRepository } from './projects.repository'

/** How long a renamed project's old URLs redirect to the new ones (and nobody else may take the old slug). */
export const SLUG_REDIRECT_MS = 90 * DAY

/** Whether `slug` is free on this server: no project has it and no renamed project's old URLs hold it (other than `projectId`'s own). */
async function slugIsFree(db: Seam, slug: string, now: Date, projectId?: string): Promise<boolean> {
  const repo = createProjectsRepository({ db })
  if (await repo.slugOwned(slug)) return false
  const holder = await repo.redirectHolder(slug, now)
  return !holder || holder === projectId
}

/**
 * Gives the project the slug `wanted` as it is (no creator prefix) when it is free on this server, else
 * 409; the old slug redirects to the new one for 90 days. Taking back one of its own old slugs ends
 * that slug's redirect.
 */
export async function changeSlug(db: Seam, project: { id: string; slug: string }, wanted: string, now: Date): Promise<void> {
  if (wanted === project.slug) return
  if (!(await slugIsFree(db, wanted, now, project.id))) throw conflict(`the slug ${wanted} is taken on this server; choose another`)
  // A row left from an ended redirect (of any project) no longer counts: moveSlug replaces it.
  await createProjectsRepository({ db }).moveSlug(project, wanted, new Date(now.getTime() + SLUG_REDIRECT_MS), now)
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
