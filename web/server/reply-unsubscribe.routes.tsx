import { Elysia } from 'elysia'
import type { AppDeps } from '../../src/app-deps'
import { unsubscribeFromReplies } from '../../src/modules/public/reply-mail'
import { UnsubscribedPage, UnsubscribePage } from '../public-pages/unsubscribe'
import { DEFAULT_BRAND, publicPage } from './public-page.render'

/**
 * The unsubscribe link of a reply mail: a page that asks, then a form post that does it, so a mail
 * scanner opening the link unsubscribes nobody. No account is needed: the token is signed.
 */
export function replyUnsubscribeRoutes(deps: AppDeps) {
  const absolute = (path: string) => `${deps.config.publicUrl}${path}`
  return new Elysia({ name: 'reply-unsubscribe', seed: deps.instanceId })
    .get('/replies/unsubscribe', ({ query, path }) => {
      const token = typeof query.token === 'string' ? query.token : ''
      return publicPage({ brand: DEFAULT_BRAND, meta: { title: 'Stop reply emails', description: 'Stop emails about your bug reports', url: absolute(path) } }, <UnsubscribePage token={token} />)
    })
    .post('/replies/unsubscribe', ({ body, path }) => {
      const fields = (body ?? {}) as Record<string, unknown>
      const done = unsubscribeFromReplies(deps, typeof fields.token === 'string' ? fields.token : '')
      return publicPage(
        { status: done ? 200 : 400, brand: DEFAULT_BRAND, meta: { title: done ? 'Unsubscribed' : 'Link not valid', description: 'Reply emails', url: absolute(path) } },
        <UnsubscribedPage projectName={done?.projectName ?? null} />,
      )
    })
}
