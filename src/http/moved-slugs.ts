import type { Db } from '../db/client'
import { slugMoved } from '../modules/projects/project-slugs'
import { movedSlug } from '../modules/projects/projects.repository'
import { readSettings } from '../modules/settings/settings.service'
import type { AppError } from './errors'

/** The public page a path belongs to; `tracker` and `roadmap` answer only while enabled, the others for any project. */
type PublicPage = 'tracker' | 'roadmap' | 'changelog' | 'branding'

/**
 * Public URLs that carry a project's slug: the public pages (`/tracker/{slug}/…`, `/roadmap/…`,
 * `/changelog/…` and its feed) and the public API (`/api/tracker/{slug}/…`, roadmap, branding, the
 * published changelog). Team routes (`/api/projects/{slug}/…`) redirect members only (http/auth.plugin.ts).
 */
const PUBLIC_SLUG_PATHS: { re: RegExp /* (what comes before the slug, naming the page)(the slug) */; getOnly?: boolean; page?: PublicPage }[] = [
  { re: /^(\/(tracker|roadmap|changelog)\/)([^/]+)/ },
  { re: /^(\/api(?:\/v1)?\/(tracker|roadmap|branding)\/)([^/]+)/ },
  // The team's changelog writes share this path; only the read is public.
  { re: /^(\/api(?:\/v1)?\/projects\/)([^/]+)\/changelog$/, getOnly: true, page: 'changelog' },
]

/** Whether the new URL's page answers for `projectId`: a redirect to a page that answers 404 would only reveal the new slug. */
function pageAnswers(db: Db, page: PublicPage, projectId: string): boolean {
  return page === 'tracker' || page === 'roadmap' ? readSettings(db, projectId, page).enabled : true
}

/**
 * The redirect for a request that found nothing at a renamed project's old public URL, while the
 * redirect lasts (90 days) and the page at the new URL answers; null for any other request. Only
 * asked after a 404, so it costs nothing on the way to a found page.
 */
export function movedPublicUrl(db: Db, now: Date, request: Request): AppError | null {
  const path = new URL(request.url).pathname
  for (const p of PUBLIC_SLUG_PATHS) {
    const m = p.re.exec(path)
    if (!m || (p.getOnly && request.method !== 'GET' && request.method !== 'HEAD')) continue
    const [page, encoded] = p.page ? [p.page, m[2]!] : [m[2] as PublicPage, m[3]!]
    let from: string
    try {
      from = decodeURIComponent(encoded)
    } catch {
      return null
    }
    const moved = movedSlug(db, from, now)
    return moved && pageAnswers(db, page, moved.id) ? slugMoved({ method: request.method, url: request.url, prefix: m[1]!, from, to: moved.slug }) : null
  }
  return null
}
