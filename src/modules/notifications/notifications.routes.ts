import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { unsubscribeQuery, updatePreferencesBody } from './notifications.schemas'
import { getPreferences, unsubscribe, updatePreferences } from './notifications.service'

const tags = ['Notifications']

/** Mail preferences (spec 4.12) and the signed unsubscribe link every notification carries. */
export const notificationsRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/notifications/preferences', ({ user }) => getPreferences(deps.db, user.id), {
      auth: true,
      detail: { tags, summary: 'Your email notification preferences' },
    })
    .put('/notifications/preferences', ({ user, body }) => updatePreferences(deps, user.id, body), {
      auth: true,
      body: updatePreferencesBody,
      detail: { tags, summary: 'Change some or all of your email notification preferences' },
    })
    .get('/notifications/unsubscribe', ({ query }) => unsubscribe(deps, query.token), {
      query: unsubscribeQuery,
      detail: { tags, summary: 'Turn off the preference an email’s unsubscribe link names (no sign-in)' },
    })
