import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { deleteUserAccount } from './account-data.deletion'
import { EXPORT_FILE_NAME, exportUserData } from './account-data.export'
import { deleteAccountBody } from './account-data.schemas'

const tags = ['Auth']

/** Spec 4.1: a person's export of their data and the deletion of their user with what only they own. */
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
}
