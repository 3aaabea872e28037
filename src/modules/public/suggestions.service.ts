import type { Config } from '../../config/config'
import type { AppDeps } from '../../app-deps'
import { createReportsSearchRepository } from '../reports/reports.search.repository'
import type { TrackerSettings } from '../settings/settings.schemas'
import { settingsOf } from '../settings/settings.service'
import { enabledTracker, type PublicProject } from './public.service'
import { publicReportsOf } from './public.repository'

/** Suggestions shown under the title of the player's report form. */
export const SUGGESTION_LIMIT = 5

type Deps = Pick<AppDeps, 'db'>

export interface Suggestions {
  bugs: { report_number: number; title: string; status: string; upvotes: number; url: string }[]
  /** The tracker takes upvotes: the form offers "vote for this instead". */
  can_vote: boolean
}

/**
 * Public reports whose titles resemble `title` (the team's similar-reports search, narrowed to what
 * the public pages show), so a player can vote on an existing report instead of filing it again.
 */
async function suggestionsFor(deps: Deps, config: Pick<Config, 'publicUrl'>, project: PublicProject & { slug: string }, settings: TrackerSettings, title: string): Promise<Suggestions> {
  // The reports domain's similar-titles search (reports.search.ts), narrowed to what the public pages show.
  const rows = await createReportsSearchRepository({ db: deps.db }).similarWhere(publicReportsOf(project.id, settings), title, SUGGESTION_LIMIT)
  const base = `${config.publicUrl}/tracker/${encodeURIComponent(project.slug)}`
  return {
    bugs: rows.map((r) => ({ report_number: r.reportNumber, title: r.title, status: r.status, upvotes: r.upvotes, url: `${base}/${r.reportNumber}` })),
    can_vote: settings.allow_upvotes,
  }
}

/** The tracker form's suggestions (`GET /api/tracker/{slug}/similar`); 404 unless the tracker is enabled. */
export async function trackerSuggestions(deps: Deps, config: Pick<Config, 'publicUrl'>, slug: string, title: string): Promise<Suggestions> {
  const { project, settings } = await enabledTracker(deps, slug)
  return suggestionsFor(deps, config, project, settings, title)
}

/** The widget's suggestions (`GET /api/bugs/similar`, by SDK key): none while the project's tracker is off, since players could not open them. */
export async function widgetSuggestions(deps: Deps, config: Pick<Config, 'publicUrl'>, project: PublicProject & { slug: string }, title: string): Promise<Suggestions> {
  const settings = await settingsOf(deps.db, project.id, 'tracker')
  if (!settings.enabled) return { bugs: [], can_vote: false }
  return suggestionsFor(deps, config, project, settings, title)
}
