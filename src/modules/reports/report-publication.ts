import type { Seam } from '../../db/client'
import { createReportsRepository } from './reports.repository'

/** The tracker's `publish` modes, chosen in its settings. */
export const PUBLISH_MODES = ['all', 'triaged', 'manual'] as const
export type PublishMode = (typeof PUBLISH_MODES)[number]

/**
 * What the public pages show (issue 25). A report is public when it is live and not private, and
 * either published explicitly (`published = true`, whatever the mode and the auto-filed rule), or
 * not unpublished (`published` null) and let through by the tracker's `publish` mode (`all`;
 * `triaged`: a team member touched it; `manual`: nothing) and auto-filed rule (`include_auto_filed`,
 * else only reports that are not auto-filed).
 */
export type PublishRules = { publish: PublishMode; include_auto_filed: boolean }

/** Why a report is or is not on the public pages, for the team's report page. */
export type PublicationReason = 'published' | 'unpublished' | 'private' | 'mode_all' | 'triaged' | 'not_triaged' | 'manual' | 'auto_filed'

export interface PublicationRow {
  published: boolean | null
  isPrivate: boolean
  triagedAt: Date | null
  autoFiled: boolean | null
}

/** `publicReportsOf` (public.repository.ts) for one live report in memory, with the reason (that SQL decides the public pages; test/public/publication.test.ts checks both agree). */
export function publicationOf(r: PublicationRow, s: PublishRules): { shown: boolean; reason: PublicationReason } {
  if (r.isPrivate) return { shown: false, reason: 'private' }
  if (r.published === true) return { shown: true, reason: 'published' }
  if (r.published === false) return { shown: false, reason: 'unpublished' }
  if (s.publish === 'manual') return { shown: false, reason: 'manual' }
  if (r.autoFiled && !s.include_auto_filed) return { shown: false, reason: 'auto_filed' }
  if (s.publish === 'triaged') return r.triagedAt ? { shown: true, reason: 'triaged' } : { shown: false, reason: 'not_triaged' }
  return { shown: true, reason: 'mode_all' }
}

/**
 * Records that a team member touched these reports (status changed, labelled, commented publicly,
 * published): `publish: triaged` shows them from now on. The first touch is kept.
 */
export async function markTriaged(tx: Seam, reportIds: string[], now: Date): Promise<void> {
  if (reportIds.length === 0) return
  await createReportsRepository({ db: tx }).markTriaged(reportIds, now)
}
