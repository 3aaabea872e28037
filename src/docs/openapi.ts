import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import * as z from 'zod'
import { scalarBundlePath } from './assets'

const SCALAR_PATH = '/docs/assets/scalar.js'

/** OpenAPI 3 at /openapi.json and interactive docs at /docs, generated from the route schemas. */
export function apiDocs(version: string) {
  return new Elysia()
    .get(SCALAR_PATH, () => new Response(Bun.file(scalarBundlePath()), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' } }), {
      detail: { hide: true },
    })
    .use(
      openapi({
        path: '/docs',
        specPath: '/openapi.json',
        provider: 'scalar',
        // No default fonts: Scalar would fetch them from its CDN, and /docs must work offline.
        scalar: { cdn: SCALAR_PATH, withDefaultFonts: false } as never,
        // Types JSON Schema cannot express (File uploads, transforms) are documented as open values instead of failing.
        mapJsonSchema: { zod: (schema: z.ZodType) => z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) },
        exclude: { paths: [/^\/api\/v1\//, SCALAR_PATH] },
        documentation: {
          info: {
            title: 'Glitchbox API',
            version: '1.0.0',
            description: `Bug reports for games. Every /api route is also served under /api/v1. Server ${version}.`,
          },
          components: {
            securitySchemes: {
              session: { type: 'http', scheme: 'bearer', description: 'Session token from /api/auth/login' },
              apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Project API key (sk_live_…)' },
            },
          },
        },
      }),
    )
}
