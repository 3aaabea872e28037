import { Elysia } from 'elysia'
import type { ComponentChildren } from 'preact'
import type { AppDeps } from '../../src/app-deps'
import { AppError } from '../../src/http/errors'
import { unsubscribe, unsubscribeSubject } from '../../src/modules/notifications/notifications.service'
import { unsubscribeFromReplies } from '../../src/modules/public/reply-mail'
import { UnsubscribedPage, UnsubscribePage } from '../public-pages/unsubscribe'
import { DEFAULT_BRAND, publicPage } from './public-page.render'

const tokenOf = (fields: unknown) => {
  const token = (fields as Record<string, unknown> | undefined)?.token
  return typeof token === 'string' ? token : ''
}

/**
 * The unsubscribe links of mails: a page that asks, then a form post that does it, so a mail scanner
 * opening the link unsubscribes nobody. No account is needed: the tokens are signed. Reply mails go
 * to players (`/replies/unsubscribe`); team mails to members (`/notifications/unsubscribe`).
 */
export function unsubscribeRoutes(deps: AppDeps) {
  const absolute = (path: string) => `${deps.config.publicUrl}${path}`
  const page = (path: string, title: string, body: ComponentChildren, status = 200) => publicPage({ status, brand: DEFAULT_BRAND, meta: { title, description: 'Email preferences', url: absolute(path) } }, body)
  const invalid = (path: string) => page(path, 'Link not valid', <UnsubscribedPage message={null} />, 400)

  /** Runs the team-mail unsubscribe: its message, or null for a link that is not valid. */
  const teamUnsubscribe = async (token: string): Promise<string | null> => {
    try {
      return (await unsubscribe(deps, token)).message
    } catch (e) {
      if (e instanceof AppError && e.status === 400) return null
      throw e
    }
  }

  return new Elysia({ name: 'unsubscribe-pages', seed: deps.instanceId })
    .get('/replies/unsubscribe', ({ query, path }) =>
      page(
        path,
        'Stop reply emails',
        <UnsubscribePage
          action="/replies/unsubscribe"
          token={tokenOf(query)}
          heading="Stop reply emails"
          question="You get an email when a team replies to a bug report you sent with your address. Stop these emails for this game?"
        />,
      ),
    )
    .post('/replies/unsubscribe', async ({ body, path }) => {
      const done = await unsubscribeFromReplies(deps, tokenOf(body))
      return done ? page(path, 'Unsubscribed', <UnsubscribedPage message={`You will get no more reply emails from ${done.projectName}.`} />) : invalid(path)
    })
    .get('/notifications/unsubscribe', async ({ query, path }) => {
      const subject = await unsubscribeSubject(deps, tokenOf(query))
      if (!subject) return invalid(path)
      const heading = `Stop ${subject} emails`
      return page(path, heading, <UnsubscribePage action="/notifications/unsubscribe" token={tokenOf(query)} heading={heading} question={`Stop the ${subject} emails Glitchbox sends you? You can turn them on again in your notification settings.`} />)
    })
    .post('/notifications/unsubscribe', async ({ body, path }) => {
      const message = await teamUnsubscribe(tokenOf(body))
      return message ? page(path, 'Unsubscribed', <UnsubscribedPage message={message} />) : invalid(path)
    })
}
