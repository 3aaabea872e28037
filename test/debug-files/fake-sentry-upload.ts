// A stand-in for Sentry's upload endpoints on 127.0.0.1, enough for the real `sentry-cli sourcemaps
// upload` to send its chunks and exit 0: the chunk-upload options, the chunks (plain or gzipped,
// each checked against its SHA-1 name) and the artifact-bundle assemble call, which answers the
// missing chunks first and `ok` once they are all in. The assembled bundles are kept for the test.
import { gunzipSync } from 'node:zlib'

export interface AssembleCall {
  checksum: string
  chunks: string[]
  projects?: string[]
  version?: string
  dist?: string
}

export interface FakeSentryUpload {
  url: string
  /** Each assembled bundle (the chunks joined in order), with the assemble request that named it. */
  bundles: { request: AssembleCall; bytes: Uint8Array }[]
  /** `METHOD path` of every request, in order. */
  requests: string[]
  /** The `Authorization` headers seen. */
  authorizations: string[]
  stop(): void
}

const CHUNK_SIZE = 8 * 1024 * 1024

const sha1 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha1').update(bytes).digest('hex')

/** Starts the fake on a free port of 127.0.0.1. */
export function startFakeSentryUpload(): FakeSentryUpload {
  const chunks = new Map<string, Uint8Array>()
  const state: FakeSentryUpload = { url: '', bundles: [], requests: [], authorizations: [], stop: () => server.stop(true) }
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      state.requests.push(`${req.method} ${url.pathname}`)
      state.authorizations.push(req.headers.get('authorization') ?? '')
      if (/^\/api\/0\/organizations\/[^/]+\/chunk-upload\/$/.test(url.pathname)) {
        if (req.method === 'GET') {
          return Response.json({
            url: `${state.url}${url.pathname}`, chunkSize: CHUNK_SIZE, chunksPerRequest: 64, maxFileSize: 2 ** 31, maxRequestSize: 32 * 1024 * 1024,
            concurrency: 1, hashAlgorithm: 'sha1', compression: ['gzip'], accept: ['release_files', 'artifact_bundles', 'artifact_bundles_v2', 'debug_files', 'sources'],
          })
        }
        for (const [field, entry] of (await req.formData()).entries()) {
          const value = entry as unknown
          if (!(value instanceof File)) continue
          const raw = new Uint8Array(await value.arrayBuffer())
          const bytes = field === 'file_gzip' ? new Uint8Array(gunzipSync(raw)) : raw
          const name = value.name
          if (sha1(bytes) !== name) return Response.json({ detail: `chunk ${name} does not match its SHA-1` }, { status: 400 })
          chunks.set(name, bytes)
        }
        return new Response(null, { status: 200 })
      }
      if (/^\/api\/0\/organizations\/[^/]+\/artifactbundle\/assemble\/$/.test(url.pathname)) {
        const request = (await req.json()) as AssembleCall
        const missing = request.chunks.filter((c) => !chunks.has(c))
        if (missing.length) return Response.json({ state: 'not_found', missingChunks: missing })
        const bytes = Buffer.concat(request.chunks.map((c) => chunks.get(c)!))
        if (!state.bundles.some((b) => b.request.checksum === request.checksum)) state.bundles.push({ request, bytes: new Uint8Array(bytes) })
        return Response.json({ state: 'ok', missingChunks: [] })
      }
      return Response.json({ detail: 'not found' }, { status: 404 })
    },
  })
  state.url = `http://127.0.0.1:${server.port}`
  return state
}
