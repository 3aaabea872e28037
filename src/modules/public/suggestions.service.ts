import type { Config } from '../../config/config'
import type { Db } from '../../db/client'
import { similarTitleMatch } from '../reports/fts-query'
import { similarTitlesQuery } from '../reports/reports.search'
import type { TrackerSettings } from '../settings/settings.schemas'
import { readSettings } from '../settings/settings.service'
import { enabledTracker, type PublicProject } from './public.service'
import { publicReportsOf } from './publication'

/** Suggestions shown under the title of the player's report form. */
export const SUGGESTION_LIMIT = 5

export interface Suggestions {
  bugs: { report_number: number; title: string; status: string; upvotes: number; url: string }[]
  /** The tracker takes upvotes: the form offers "vote for this instead". */
  can_vote: boolean
}

/**
 * Public reports whose titles resemble `title` (the team's similar-reports search, narrowed to what
 * the public pages show), so a player can vote on an existing report instead of filing it again.
 */
function suggestionsFor(db: Db, config: Pick<Config, 'publicUrl'>, project: PublicProject & { slug: string }, settings: TrackerSettings, title: string): Suggestions {
  const match = similarTitleMatch(title)
  const rows = match ? similarTitlesQuery(db, publicReportsOf(project.id, settings), SUGGESTION_LIMIT).prepare().all({ match }) : []
  const base = `${config.publicUrl}/tracker/${encodeURIComponent(project.slug)}`
  return {
    bugs: rows.map((r) => ({ report_number: r.reportNumber, title: r.title, status: r.status, upvotes: r.upvotes, url: `${base}/${r.reportNumber}` })),
    can_vote: settings.allow_upvotes,
  }
}

/** The tracker form's suggestions (`GET /api/tracker/{slug}/similar`); 404 unless the tracker is enabled. */
export function trackerSuggestions(db: Db, config: Pick<Config, 'publicUrl'>, slug: string, title: string): Suggestions {
  const { project, settings } = enabledTracker(db, slug)
  return suggestionsFor(db, config, { ...project, slug }, settings, title)
}

/** The widget's suggestions (`GET /api/bugs/similar`, by SDK key): none while the project's tracker is off, since players could not open them. */
export function widgetSuggestions(db: Db, config: Pick<Config, 'publicUrl'>, project: PublicProject & { slug: string }, title: string): Suggestions {
  const settings = readSettings(db, project.id, 'tracker')
  if (!settings.enabled) return { bugs: [], can_vote: false }
  return suggestionsFor(db, config, project, settings, title)
}
