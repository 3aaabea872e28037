import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { pageQuery, playerPatchBody, playersQuery } from './analytics.schemas'
import { customersOverview, listPlayers, playerReports, playerSessions, readPlayer, updatePlayer } from './players.service'

const tags = ['Analytics']
const view = 'analytics.view' as const

/** Spec 4.11 players and customers. */
export const playersRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/players', ({ project, query }) => listPlayers(deps.db, project.id, query), {
      project: view,
      query: playersQuery,
      detail: { tags, summary: 'Players, 25 a page; q searches id and name' },
    })
    .get('/projects/:slug/players/:playerId', ({ project, params }) => readPlayer(deps.db, project.id, params.playerId), {
      project: view,
      detail: { tags, summary: 'A player with notes, sentiment, session and report totals' },
    })
    .patch('/projects/:slug/players/:playerId', ({ project, params, body }) => updatePlayer(deps, project.id, params.playerId, body), {
      project: view,
      body: playerPatchBody,
      detail: { tags, summary: "Set the team's notes and sentiment about a player" },
    })
    .get('/projects/:slug/players/:playerId/sessions', ({ project, params, query }) => playerSessions(deps.db, project.id, params.playerId, query.page), {
      project: view,
      query: pageQuery,
      detail: { tags, summary: "A player's sessions, newest first" },
    })
    .get('/projects/:slug/players/:playerId/bugs', ({ project, params, query }) => playerReports(deps.db, project.id, params.playerId, query.page), {
      project: view,
      query: pageQuery,
      detail: { tags, summary: "A player's reports, newest first" },
    })
    .get('/projects/:slug/customers/overview', ({ project }) => customersOverview(deps.db, project.id, deps.clock.now()), {
      project: view,
      detail: { tags, summary: 'Players, active in 7 and 30 days, reporting players, sentiment mix' },
    })
