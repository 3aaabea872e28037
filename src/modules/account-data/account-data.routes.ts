import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { deleteUserAccount } from './account-data.deletion'
import { EXPORT_FILE_NAME, exportUserData } from './account-data.export'
import { apiTokenBody, apiTokenParams, deleteAccountBody } from './account-data.schemas'
import { createUserApiToken, listApiTokens } from './api-tokens.service'
import { revokeApiToken } from '../auth/api-tokens'

const tags = ['Auth']

/**
 * Spec 4.1: a person's export of their data and the deletion of their user with what only they own;
 * their API tokens for tools (CONTRACT.md "Debug files and source maps"), limited to a project they see.
 */
export function accountDataRoutes(deps: AppDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      '/account/export',
      ({ user, set }) => {
        set.headers['content-disposition'] = `attachment; filename="${EXPORT_FILE_NAME}"`
        return exportUserData(deps.db, user, deps.clock.now())
      },
      { auth: true, detail: { tags, summary: 'Download your profile, accounts, projects, reports and comments as JSON' } },
    )
    .delete('/auth/account', ({ user }) => deleteUserAccount(deps, user), {
      auth: true,
      body: deleteAccountBody,
      detail: { tags, summary: 'Delete your user and the accounts only you own; body {confirmation: "DELETE"}' },
    })
    .get('/auth/api-tokens', ({ user }) => listApiTokens(deps.db, user), { auth: true, detail: { tags, summary: 'Your API tokens (never the tokens themselves)' } })
    .post(
      '/auth/api-tokens',
      async ({ user, body, set }) => {
        set.status = 201
        return createUserApiToken(deps.db, user, body, deps.clock.now())
      },
      { auth: true, body: apiTokenBody, detail: { tags, summary: 'Create an API token with scopes (debug_files.upload), for one project or all you see; the token is shown in this answer only' } },
    )
    .delete('/auth/api-tokens/:id', ({ user, params }) => revokeApiToken(deps.db, user.id, params.id), {
      auth: true,
      params: apiTokenParams,
      detail: { tags, summary: 'Revoke one of your API tokens' },
    })
}
