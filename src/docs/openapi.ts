import { Elysia } from 'elysia'
import * as z from 'zod'
import { htmlSecurityHeaders } from '../../web/server/security-headers'
import { randomToken } from '../lib/ids'
import { scalarBundlePath } from './assets'
import { DOCS_ASSETS, docsPageHtml, docsStartScript } from './docs-page'

/** Absolute, so the page finds the document from `/docs` and `/docs/` alike. */
export const SPEC_PATH = '/openapi.json'

/** OpenAPI 3 at /openapi.json and interactive docs at /docs (and /docs/), generated from the route schemas. */
export function apiDocs(version: string) {
  const info = {
    title: 'Glitchbox API',
    version: '1.0.0',
    description: [
      `Bug reports for games. Server ${version}.`,
      'Paths are relative to this server. Every `/api/…` path below is also served as `/api/v1/…`, with the same request and answer; long-lived integrations should call the `/api/v1/` form. `/health` stays at the root.',
      'Every JSON answer under /api is the envelope `{ok: true, data}` or `{ok: false, error}`.',
    ].join('\n\n'),
  }
  // The same headers as every other page (CSP, no framing); the nonce admits the viewer's run-time styles.
  const docsPage = () => {
    const nonce = randomToken(18)
    return new Response(docsPageHtml({ title: info.title, description: 'Reference of the Glitchbox HTTP API', nonce }), { headers: htmlSecurityHeaders({ styleNonce: nonce }) })
  }
  const script = (body: () => BodyInit) => () => new Response(body(), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' } })
  const startScript = docsStartScript(SPEC_PATH)
  let cached: { routes: number; document: Record<string, unknown> } | null = null

  const docs = new Elysia({ name: 'api-docs' })
  return docs
    .get(DOCS_ASSETS.scalar, script(() => Bun.file(scalarBundlePath())), { detail: { hide: true } })
    .get(DOCS_ASSETS.start, script(() => startScript), { detail: { hide: true } })
    .get('/docs', docsPage, { detail: { hide: true } })
    .get(
      SPEC_PATH,
      () => {
        // Built on first request, once every module's routes are registered; rebuilt only if routes were added.
        const routes = globalRoutes(docs).length
        if (cached?.routes !== routes) cached = { routes, document: buildDocument(docs, info) }
        return cached.document
      },
      { detail: { hide: true } },
    )
}

/**
 * The generated document (routes, parameters, bodies) completed with responses, security and tags. The
 * generator and the response schemas are loaded here, at the first request for the document: building
 * them at import cost every server start ~70 ms (issue 30).
 */
function buildDocument(app: AnyElysia, info: Record<string, string>) {
  const { toOpenAPISchema } = require('@elysiajs/openapi') as typeof import('@elysiajs/openapi')
  const { completeDocument } = require('./document') as typeof import('./document')
  const generated = toOpenAPISchema(app, { paths: [/^\/api\/v1\//, /^\/(?!api\/|health$)/] }, undefined, { zod: inputSchema }, '3.1.2')
  completeRequestBodies(app, generated.paths as Record<string, Record<string, any>>)
  return completeDocument({ openapi: '3.1.2', info, paths: generated.paths, components: generated.components }).document
}

type AnyElysia = Elysia<any, any, any, any, any, any, any>

/** Every route of the app this plugin is mounted in (the router is shared); the generator reads the same list. */
const globalRoutes = (app: AnyElysia) =>
  (app as unknown as { getGlobalRoutes(): { method: string; path: string; hooks?: unknown }[] }).getGlobalRoutes()

// Types JSON Schema cannot express (File uploads, transforms) are documented as open values instead of failing.
const inputSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' })

/**
 * Request bodies as the routes declare them. The generator marks every body required, though a route whose
 * schema is optional takes none (votes, resend-verification); and it lists media types only from named
 * parsers, so routes whose body goes through a parser function (the pipeline's size- and depth-capped
 * reader, the SDK's streaming parsers) come out with no content: their schema is taken from the route,
 * multipart when it holds a file, else JSON.
 */
function completeRequestBodies(app: AnyElysia, paths: Record<string, Record<string, any>>) {
  for (const route of globalRoutes(app)) {
    const op = paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()]
    const body = (route.hooks as { body?: unknown } | undefined)?.body
    if (!op?.requestBody || !(body instanceof z.ZodType)) continue
    op.requestBody.required = !body.safeParse(undefined).success
    if (Object.keys(op.requestBody.content ?? {}).length) continue
    const { $schema: _, ...schema } = inputSchema(body) as Record<string, unknown>
    const media = JSON.stringify(schema).includes('"format":"binary"') ? 'multipart/form-data' : 'application/json'
    op.requestBody.content = { [media]: { schema } }
  }
}
