import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { prefersHtml } from '../../http/accept'
import { authPlugin } from '../../http/auth.plugin'
import { badRequest } from '../../http/errors'
import { unsubscribeBody, unsubscribeQuery, updatePreferencesBody } from './notifications.schemas'
import { getPreferences, unsubscribe, unsubscribeSubject, updatePreferences } from './notifications.service'

const tags = ['Notifications']

/** Mail preferences (spec 4.12) and the signed unsubscribe link every notification carries. */
export const notificationsRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/notifications/preferences', ({ user }) => getPreferences(deps, user.id), {
      auth: true,
      detail: { tags, summary: 'Your email notification preferences' },
    })
    .put('/notifications/preferences', ({ user, body }) => updatePreferences(deps, user.id, body), {
      auth: true,
      body: updatePreferencesBody,
      detail: { tags, summary: 'Change some or all of your email notification preferences' },
    })
    // Mails sent before the unsubscribe page link here. A GET never unsubscribes: link scanners and
    // prefetchers follow links. A browser is sent to the page that asks; other callers learn what POST would do.
    .get(
      '/notifications/unsubscribe',
      async ({ query, headers, redirect }) => {
        if (prefersHtml(headers.accept)) return redirect(`/notifications/unsubscribe?token=${encodeURIComponent(query.token ?? '')}`, 303)
        const subject = await unsubscribeSubject(deps, query.token)
        if (!subject) throw badRequest('this unsubscribe link is not valid')
        return { message: `Send this token with POST to stop ${subject} emails; nothing has changed yet.` }
      },
      {
        query: unsubscribeQuery,
        detail: { tags, summary: 'What an unsubscribe token would turn off, changing nothing (browsers are redirected to the page /notifications/unsubscribe that asks)' },
      },
    )
    .post('/notifications/unsubscribe', ({ body }) => unsubscribe(deps, body.token), {
      body: unsubscribeBody,
      detail: { tags, summary: 'Turn off the preference an email’s unsubscribe token names (no sign-in)' },
    })
