import { analyticsTour } from './analytics.tour'
import { authTour } from './auth.tour'
import { billingTour } from './billing.tour'
import { changelogTour } from './changelog.tour'
import { commentsLabelsTour } from './comments-labels.tour'
import { debugFilesTour } from './debug-files.tour'
import { discordTour } from './discord.tour'
import { integrationsTour } from './integrations.tour'
import { lastTour } from './last.tour'
import { projectsTour } from './projects.tour'
import { publicTour } from './public.tour'
import { reportsTour } from './reports.tour'
import { sdkTour } from './sdk.tour'
import { sentryTour } from './sentry.tour'
import { settingsTour } from './settings.tour'
import { teamTour } from './team.tour'
import type { Tour } from './tour.types'
import { workflowTour } from './workflow.tour'

/**
 * One step per operation of /openapi.json, run in this order (later groups read what earlier ones made).
 * A new route needs a step in the group of its domain, or prism-tour.test.ts fails naming it.
 */
export const TOUR: Tour = merge([publicTour, authTour, projectsTour, reportsTour, workflowTour, commentsLabelsTour, sdkTour, debugFilesTour, sentryTour, settingsTour, changelogTour, integrationsTour, discordTour, teamTour, billingTour, analyticsTour, lastTour])

/** The groups in order; an operation may have one step only (a second would silently replace the first). */
function merge(groups: Tour[]): Tour {
  const tour: Tour = {}
  for (const group of groups) {
    for (const [key, step] of Object.entries(group)) {
      if (tour[key]) throw new Error(`two tour steps for ${key}`)
      tour[key] = step
    }
  }
  return tour
}
