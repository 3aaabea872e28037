import { Elysia } from 'elysia'
import type { AppDeps } from '../app-deps'

/**
 * A webhook whose sender signs the exact bytes it sent (Stripe, Discord): the JSON parser consumes
 * the body before the handler runs, so a copy is taken as a POST to `path` arrives (those routes
 * only). `plugin` is named, so the hook registers once although a module is mounted under /api and
 * /api/v1; `bodyOf` gives the handler the copy ('' when none was taken).
 */
// One map for every such route: the plugin of the second mount is skipped by name, so its copies
// must be found by the first mount's handler and the second's alike.
const bodies = new WeakMap<Request, Promise<string>>()

export function rawBodyCopy(deps: Pick<AppDeps, 'instanceId'>, o: { name: string; marker: string; path: RegExp }) {
  const plugin = new Elysia({ name: o.name, seed: deps.instanceId }).onRequest(({ request }) => {
    // The substring test first: the URL is parsed only for a request that may be one of these.
    if (request.method === 'POST' && request.url.includes(o.marker) && o.path.test(new URL(request.url).pathname)) bodies.set(request, request.clone().text())
  })
  return { plugin, bodyOf: async (request: Request): Promise<string> => (await bodies.get(request)) ?? '' }
}
