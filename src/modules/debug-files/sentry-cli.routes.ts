import { Elysia } from 'elysia'
import type * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import { badRequest, describeIssues } from '../../http/errors'
import { publicUrlUnset } from '../../config/config'
import { assembleBundle } from './bundle-assemble'
import { chunkUploadOptions, receiveChunks } from './chunk-upload'
import { bundleAssembleBody, difAssembleBody, sentryCliOrgParams, sentryCliProjectParams } from './debug-files.schemas'
import { assembleDifs } from './dif-assemble'
import { uploaderOf, uploadProject } from './upload-caller'

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
  const caller = (request: Request) => uploaderOf(db, Object.fromEntries(request.headers), clock.now())
  return new Elysia()
    .get(
      '/api/0/organizations/:org/chunk-upload',
      async ({ request }) => {
        await caller(request)
        // Behind a proxy the configured public URL is where sentry-cli reaches us; without one, the address it used.
        const base = publicUrlUnset(config) ? new URL(request.url).origin : config.publicUrl
        return Response.json(chunkUploadOptions(`${base}${new URL(request.url).pathname.replace(/\/?$/, '/')}`))
      },
      { params: sentryCliOrgParams, detail: { tags: TAGS, summary: 'sentry-cli: the chunk-upload options (chunk size, chunks per request, SHA-1, gzip)' } },
    )
    .post(
      '/api/0/organizations/:org/chunk-upload',
      async ({ request }) => {
        const uploader = await caller(request)
        const form = await request.formData().catch((err: unknown) => {
          if (err instanceof Error && 'status' in err) throw err
          throw badRequest('malformed multipart body')
        })
        await receiveChunks(deps, uploader, form)
        return new Response(null, { status: 200 })
      },
      { ...RAW, params: sentryCliOrgParams, detail: { tags: TAGS, summary: 'sentry-cli: upload chunks (multipart fields `file` or `file_gzip`, each named by its SHA-1)' } },
    )
    .post(
      '/api/0/projects/:org/:project/files/difs/assemble',
      async ({ request, params, body }) => {
        const uploader = await caller(request)
        const project = await uploadProject(db, uploader, params.project)
        return Response.json(await assembleDifs(deps, uploader, project, bodyOf(body, difAssembleBody)))
      },
      { params: sentryCliProjectParams, detail: { tags: TAGS, summary: 'sentry-cli debug-files upload: assemble debug files from their chunks (missing chunks first, then ok)' } },
    )
    .post(
      '/api/0/organizations/:org/artifactbundle/assemble',
      async ({ request, body: raw }) => {
        const uploader = await caller(request)
        const body = bodyOf(raw, bundleAssembleBody)
        const projects = []
        for (const slug of new Set(body.projects)) projects.push(await uploadProject(db, uploader, slug))
        return Response.json(await assembleBundle(deps, uploader, projects, body))
      },
      { params: sentryCliOrgParams, detail: { tags: TAGS, summary: 'sentry-cli sourcemaps upload: assemble an artifact bundle from its chunks (missing chunks first, then ok)' } },
    )
}
