import { Elysia } from 'elysia'
import type * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import { badRequest, describeIssues } from '../../http/errors'
import { publicUrlUnset } from '../../config/config'
import { assembleBundle } from './bundle-assemble'
import { chunkUploadOptions, receiveChunks } from './chunk-upload'
import { bundleAssembleBody, difAssembleBody, sentryCliOrgParams, sentryCliProjectParams } from './debug-files.schemas'
import { assembleDifs } from './dif-assemble'
import { type Uploader, uploaderOf, uploadProject } from './upload-caller'

const TAGS = ['Debug files']
/** Chunks are read after the caller is known, all parts of one name kept (Elysia's parser would keep one). */
const RAW = { parse: () => true as const }

/** A JSON body read with the route's schema once the caller is checked: 400 naming what is wrong. */
function bodyOf<S extends z.ZodType>(body: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw badRequest(describeIssues(parsed.error.issues as never))
  return parsed.data
}

/**
 * The routes `sentry-cli debug-files upload` and `sourcemaps upload` call (CONTRACT.md "Debug files and
 * source maps"), at Sentry's paths: `/api/0/…`, no `/api/v1` form. The organization in the path is
 * not looked at (projects are found by slug); the bearer token decides who uploads and where. Errors
 * answer `{"detail": …}` as Sentry's do (http/sentry-paths.ts).
 */
export function sentryCliRoutes(deps: AppDeps) {
  const { db, clock, config } = deps
  // The uploader is checked in `transform`, before the body is read or validated (as http/auth.plugin.ts does).
  const uploaders = new WeakMap<Request, Uploader>()
  const checked = { transform: async ({ request }: { request: Request }) => void uploaders.set(request, await uploaderOf(db, Object.fromEntries(request.headers), clock.now())) }
  const caller = (request: Request) => uploaders.get(request)!
  return new Elysia()
    .get(
      '/api/0/organizations/:org/chunk-upload',
      ({ request }) => {
        // Behind a proxy the configured public URL is where sentry-cli reaches us; without one, the address it used.
        const base = publicUrlUnset(config) ? new URL(request.url).origin : config.publicUrl
        return Response.json(chunkUploadOptions(`${base}${new URL(request.url).pathname.replace(/\/?$/, '/')}`))
      },
      { ...checked, params: sentryCliOrgParams, detail: { tags: TAGS, summary: 'sentry-cli: the chunk-upload options (chunk size, chunks per request, SHA-1, gzip)' } },
    )
    .post(
      '/api/0/organizations/:org/chunk-upload',
      async ({ request }) => {
        const uploader = caller(request)
        const form = await request.formData().catch((err: unknown) => {
          if (err instanceof Error && 'status' in err) throw err
          throw badRequest('malformed multipart body')
        })
        await receiveChunks(deps, uploader, form)
        return new Response('', { status: 200, headers: { 'content-type': 'text/plain' } })
      },
      { ...RAW, ...checked, params: sentryCliOrgParams, detail: { tags: TAGS, summary: 'sentry-cli: upload chunks (multipart fields `file` or `file_gzip`, each named by its SHA-1)' } },
    )
    .post(
      '/api/0/projects/:org/:project/files/difs/assemble',
      async ({ request, params, body }) => {
        const uploader = caller(request)
        const project = await uploadProject(db, uploader, params.project)
        return Response.json(await assembleDifs(deps, uploader, project, bodyOf(body, difAssembleBody)))
      },
      { ...checked, params: sentryCliProjectParams, detail: { tags: TAGS, summary: 'sentry-cli debug-files upload: assemble debug files from their chunks (missing chunks first, then ok)' } },
    )
    .post(
      '/api/0/organizations/:org/artifactbundle/assemble',
      async ({ request, body: raw }) => {
        const uploader = caller(request)
        const body = bodyOf(raw, bundleAssembleBody)
        const projects = []
        for (const slug of new Set(body.projects)) projects.push(await uploadProject(db, uploader, slug))
        return Response.json(await assembleBundle(deps, uploader, projects, body))
      },
      { ...checked, params: sentryCliOrgParams, detail: { tags: TAGS, summary: 'sentry-cli sourcemaps upload: assemble an artifact bundle from its chunks (missing chunks first, then ok)' } },
    )
}
