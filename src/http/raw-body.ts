import { Elysia } from 'elysia'
import type { AppDeps } from '../app-deps'
import { bodyLimitFor, readLimited } from './body-limit'
import { apiPathOf } from './pipeline'

// One map for every such route: the plugin of the second mount is skipped by name, so its copies
// must be found by the first mount's handler and the second's alike.
const bodies = new WeakMap<Request, Promise<string>>()

/**
 * A webhook whose sender signs the exact bytes it sent (Stripe, Discord): the JSON parser consumes
 * the body before the handler runs, so a copy is taken as a POST to `path` arrives (those routes
 * only), read no further than the route's body limit (a body past it, chunked or not, is not kept).
 * `plugin` is named, so the hook registers once although a module is mounted under /api and
 * /api/v1; `bodyOf` gives the handler the copy ('' when none was taken or it was too large, which
 * no signature matches).
 */
export function rawBodyCopy(deps: Pick<AppDeps, 'instanceId'>, o: { name: string; marker: string; path: RegExp }) {
  const plugin = new Elysia({ name: o.name, seed: deps.instanceId }).onRequest(({ request }) => {
    // The substring test first: the URL is parsed only for a request that may be one of these.
    if (request.method !== 'POST' || !request.url.includes(o.marker)) return
    const pathname = new URL(request.url).pathname
    if (!o.path.test(pathname)) return
    const limit = bodyLimitFor(apiPathOf(pathname) ?? pathname)
    // A body the client broke off reads as none; the copy is never left to reject unobserved.
    bodies.set(request, readLimited(request.clone().body, limit).then((bytes) => (bytes ? new TextDecoder().decode(bytes) : ''), () => ''))
  })
  return { plugin, bodyOf: async (request: Request): Promise<string> => (await bodies.get(request)) ?? '' }
}
