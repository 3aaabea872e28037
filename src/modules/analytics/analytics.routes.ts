import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { requireFeature } from '../auth/plans'
import { catchUpRollups, FRESH_HEADER } from './analytics.freshness'
import { crashGroupsQuery, daysQuery, environmentQuery, regressionBody, regressionsQuery, versionQuery } from './analytics.schemas'
import { churnRisk } from './churn.service'
import { badDeploy, crashAnalytics, crashGroups } from './crash.service'
import { decideRegression, detectRegressions, listRegressions } from './regressions.service'
import { releaseHealth, versionHealth } from './release-health.service'
import { triage } from './triage.service'
import { accountProjects, dashboard, satisfaction, usage } from './usage.service'
import { sdkBudgetOf } from '../../http/sdk-refusals'

const tags = ['Analytics']
const view = 'analytics.view' as const

/** Spec 4.11: dashboard, usage, crashes, release health, regressions, triage, churn and satisfaction. Numbers defined in README "Analytics". */
export const analyticsRoutes = (deps: AppDeps) => {
  const now = () => deps.clock.now()
  /** Catches the rollups up (bounded) before a read and says how fresh its numbers are, in the header and as `fresh_as_of`. */
  const fresh = async (set: { headers: Record<string, unknown> }) => {
    const at = (await catchUpRollups(deps)).toISOString()
    set.headers[FRESH_HEADER] = at
    return at
  }
  return new Elysia()
    .use(authPlugin(deps))
    .get('/analytics/dashboard', async ({ account, membership, set }) => ({ fresh_as_of: await fresh(set), ...(await dashboard(deps.db, account.id, membership.projectIds, now())) }), {
      accountPermission: view,
      detail: { tags, summary: "Across the account's projects you see: reports by status, priority and category, daily new and resolved over 30 days, crash-free rate per project" },
    })
    .get('/projects/:slug/dashboard', async ({ project, set }) => ({ fresh_as_of: await fresh(set), ...(await dashboard(deps.db, project.accountId, [project.id], now())) }), {
      project: view,
      detail: { tags, summary: "The account dashboard for one project: its reports by status, priority and category, daily new and resolved over 30 days, its crash-free rate" },
    })
    .get('/usage', async ({ account, membership, set }) => ({ fresh_as_of: await fresh(set), ...(await usage(deps.db, account.id, (await accountProjects(deps.db, account.id, membership.projectIds)).map((p) => p.id), now())) }), {
      accountPermission: view,
      detail: { tags, summary: "Reports and sessions today, in 7 and 30 days, across the account's projects you see; the account's stored bytes" },
    })
    .get('/projects/:slug/usage', async ({ account, project, set }) => ({ fresh_as_of: await fresh(set), ...(await usage(deps.db, account.id, [project.id], now())), sdk_budget: sdkBudgetOf(deps, project) }), {
      project: view,
      detail: { tags, summary: "The project's reports and sessions today, in 7 and 30 days; the account's stored bytes" },
    })
    .get('/projects/:slug/crash-analytics', async ({ project, query, set }) => ({ fresh_as_of: await fresh(set), ...(await crashAnalytics(deps.db, project.id, now(), query.days)) }), {
      project: view,
      query: daysQuery,
      detail: { tags, summary: 'Crash reports and crash-free session rate per version, platform and day' },
    })
    .get('/projects/:slug/bad-deploy', async ({ project, query, set }) => ({ fresh_as_of: await fresh(set), ...(await badDeploy(deps.db, project.id, query.environment)) }), {
      project: view,
      query: environmentQuery,
      detail: { tags, summary: 'The two newest versions with 10+ ended sessions compared (two-proportion z-test, p < 0.05)' },
    })
    .get(
      '/projects/:slug/crash-groups',
      async ({ project, account, query, set }) => {
        requireFeature(account.plan, 'crash_groups')
        await fresh(set)
        return crashGroups(deps.db, project.id, { limit: query.limit, version: query.version })
      },
      {
        project: view,
        query: crashGroupsQuery,
        detail: {
          tags,
          summary: 'Crash and error events grouped by fingerprint, as the report list groups them, with their players (tier 2)',
          description: 'A list: how fresh it is comes in the `X-Glitchbox-Fresh-As-Of` header (the `fresh_as_of` of the other analytics answers).',
        },
      },
    )
    .get('/projects/:slug/release-health', async ({ project, query, set }) => ({ fresh_as_of: await fresh(set), ...(await releaseHealth(deps.db, project.id, now(), query.environment)) }), {
      project: view,
      query: environmentQuery,
      detail: { tags, summary: 'Per version: sessions, crash-free rate, reports, players, 7-day adoption share' },
    })
    .get('/projects/:slug/release-health/version', async ({ project, query, set }) => ({ fresh_as_of: await fresh(set), ...(await versionHealth(deps.db, project.id, now(), query.version, query.days, query.environment)) }), {
      project: view,
      query: versionQuery,
      detail: { tags, summary: "One version's daily series and top crash groups (400 for an unknown version)" },
    })
    .get('/projects/:slug/regressions/detect', ({ project }) => detectRegressions(deps.db, project.id), {
      project: view,
      detail: { tags, summary: 'Suggested regressions: a resolved report and a newer similar one from a later version' },
    })
    .get('/projects/:slug/regressions', ({ project, query }) => listRegressions(deps.db, project.id, query.status), {
      project: view,
      query: regressionsQuery,
      detail: { tags, summary: 'Confirmed and dismissed regressions' },
    })
    .post(
      '/projects/:slug/regressions',
      async ({ project, user, body, set }) => {
        const r = await decideRegression(deps, project.id, user.id, body)
        set.status = r.created ? 201 : 200
        return r.regression
      },
      { project: view, body: regressionBody, detail: { tags, summary: 'Confirm or dismiss a regression pair (dismissed pairs are not suggested again)' } },
    )
    .get(
      '/projects/:slug/bugs/:number/triage',
      ({ project, account, params }) => {
        requireFeature(account.plan, 'triage')
        return triage(deps.db, project.id, params.number)
      },
      { project: view, detail: { tags, summary: 'Suggested priority, category, duplicates and assignee with reasons (tier 2)' } },
    )
    .get(
      '/projects/:slug/churn-risk',
      ({ project, account }) => {
        requireFeature(account.plan, 'churn_risk')
        return churnRisk(deps.db, project.id, now())
      },
      { project: view, detail: { tags, summary: 'Players at risk of leaving, with the reasons (tier 2)' } },
    )
    .get('/projects/:slug/satisfaction', ({ project, query }) => satisfaction(deps.db, project.id, now(), query.days), {
      project: view,
      query: daysQuery,
      detail: { tags, summary: 'Satisfaction ratings: average, distribution and daily trend' },
    })
}
