import { Elysia } from 'elysia'
import * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import { readLimited } from '../../http/body-limit'
import { AppError, badRequest, payloadTooLarge } from '../../http/errors'
import { ingest } from '../ingest/ingest.service'
import { ingestEnvelope } from './envelope.service'
import { chargeReports } from './report-budget'
import { clientOf, submissionOfEvent } from './event.adapter'
import { readMinidump, submissionOfMinidump, withMinidump } from './minidump.adapter'
import { symbolicateMinidump } from './minidump-symbols'
import { ENVELOPE_LIMITS, mapSentryEvent, openBody, parseEnvelope, parseEnvelopeHeader, parseJsonObject, type SentryBody, SENTRY_BODY_LIMITS, sentryAuthOf } from './protocol'
import { checkDsnId, sentryCaller } from './sentry-caller'
import { storeCrashFiles } from './sentry-files'
import { submissionOfUnreal } from './unreal.adapter'
import { MAX_DECODED_BYTES as MAX_UNREAL_DECODED, parseUnrealCrash } from './unreal/unreal-crash'
import { UnrealCrashError } from './unreal/unreal-errors'
import { readUnrealQuery, unrealAnswer } from './unreal/unreal-http'

const TAGS = ['Sentry SDKs']
const dsnParams = z.object({ dsnId: z.string().describe("The project's DSN id (the last part of its DSN)") })
/** The body is read by the handler (compressed, any Content-Type): Elysia leaves the stream alone. */
const RAW = { parse: () => true as const }
const idAnswer = (id: string) => Response.json({ id })
/** Sentry's event ids as the minidump route answers them in text: `xxxxxxxx-xxxx-…`. */
const textAnswer = (id: string) => new Response(unrealAnswer(id).body, { headers: { 'content-type': 'text/plain; charset=utf-8' } })

/**
 * Sentry's ingest routes (CONTRACT.md "Sentry SDKs"), at the paths Sentry's SDKs call: under `/api/`
 * with the DSN id, no `/api/v1` form. Each one checks the DSN id and the key before it reads the
 * body (an envelope whose key is only in its header: its first line alone), decodes the body within
 * its limits and the server's decoding budget (http/decode-budget.ts), and hands what it found to
 * the same services as Glitchbox's own clients (ingest, play sessions). Errors answer
 * `{"detail": …}` (see http/sentry-paths.ts).
 */
export function sentryRoutes(deps: AppDeps) {
  const { db, decodeBudget } = deps
  /** The project of a request: a key in a header or the query is checked before the body is read. */
  const callerBeforeBody = async (dsnId: string, request: Request) => {
    const auth = sentryAuthOf(request)
    return auth ? await sentryCaller(db, dsnId, auth.key) : null
  }
  /** The project of an envelope whose key is only in its header's dsn: the DSN id first, then the key from the first line (at most 64 KB decoded). */
  const callerOfHeader = async (dsnId: string, request: Request, body: SentryBody) => {
    await checkDsnId(db, dsnId)
    const header = parseEnvelopeHeader(await body.firstLine(ENVELOPE_LIMITS.maxHeaderBytes + 1))
    return sentryCaller(db, dsnId, sentryAuthOf(request, header.dsn)?.key)
  }
  /**
   * Receives the body, then decodes it within a share of the decoding budget and runs `use` on it
   * while the share is held. Received first: a slow sender must not hold a share while it trickles.
   */
  const withDecoded = async <R>(body: SentryBody, use: (bytes: Uint8Array) => Promise<R>) => {
    await body.receive()
    return decodeBudget.within(SENTRY_BODY_LIMITS.maxDecodedBytes, (share) => body.decoded(share), use)
  }
  /**
   * An Unreal container's minidump, read and symbolicated with the project's uploads; null when it
   * cannot be read, and the crash is filed from Unreal's own context as before.
   */
  const unrealNative = async (projectId: string, file: { bytes: Uint8Array } | undefined) => {
    if (!file) return null
    try {
      return { dump: readMinidump(file.bytes), symbols: await symbolicateMinidump(deps, projectId, file.bytes) }
    } catch (err) {
      if (err instanceof AppError) return null
      throw err
    }
  }
  const bodyOf = (request: Request) => openBody(request.body, request.headers.get('content-encoding'))
  return new Elysia()
    .post(
      '/api/:dsnId/envelope',
      async ({ params, request, server }) => {
        const body = bodyOf(request)
        const caller = (await callerBeforeBody(params.dsnId, request)) ?? (await callerOfHeader(params.dsnId, request, body))
        return withDecoded(body, async (bytes) => {
          const envelope = parseEnvelope(bytes)
          chargeReports(deps, request, server, caller.project.apiKey, envelope)
          return idAnswer(await ingestEnvelope(deps, caller.project, envelope))
        })
      },
      { ...RAW, params: dsnParams, detail: { tags: TAGS, summary: 'Sentry envelope: events with attachments, user feedback, sessions (the key in X-Sentry-Auth, ?sentry_key= or the envelope’s dsn)' } },
    )
    .post(
      '/api/:dsnId/store',
      async ({ params, request }) => {
        const caller = (await callerBeforeBody(params.dsnId, request)) ?? (await sentryCaller(db, params.dsnId, null))
        return withDecoded(bodyOf(request), async (bytes) => {
          const event = parseJsonObject(bytes, 'event')
          const mapped = mapSentryEvent(event)
          const header = { eventId: mapped.eventId, dsn: null, sentAt: null, sdk: mapped.sdk, raw: {} }
          const item = { type: 'event', contentType: 'application/json', filename: null, attachmentType: null, headers: {}, payload: new Uint8Array(), json: event }
          return idAnswer(await ingestEnvelope(deps, caller.project, { header, items: [item] }))
        })
      },
      { ...RAW, params: dsnParams, detail: { tags: TAGS, summary: 'Sentry event as one JSON body (older SDKs, sentry-cli send-event)' } },
    )
    .post(
      '/api/:dsnId/minidump',
      async ({ params, request }) => {
        const caller = (await callerBeforeBody(params.dsnId, request)) ?? (await sentryCaller(db, params.dsnId, null))
        return withDecoded(bodyOf(request), async (bytes) => {
          const form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData().catch(() => {
            throw badRequest('expected a multipart body with upload_file_minidump')
          })
          const upload = form.get('upload_file_minidump')
          if (!(upload instanceof Blob)) throw badRequest('upload_file_minidump is required (the minidump file)')
          const dumpBytes = new Uint8Array(await upload.arrayBuffer())
          const dump = readMinidump(dumpBytes)
          const sentry = form.get('sentry')
          const event = typeof sentry === 'string' && sentry.trim() ? parseJsonObject(new TextEncoder().encode(sentry), 'the sentry event') : null
          const mapped = event ? mapSentryEvent(event) : null
          const others: [string, File][] = []
          form.forEach((v, name) => {
            if (name !== 'upload_file_minidump' && typeof v !== 'string') others.push([name, v as File])
          })
          const files = await storeCrashFiles(deps, [
            { fileName: (upload as File).name || 'minidump.dmp', bytes: dumpBytes, contentType: 'application/x-minidump' },
            ...(await Promise.all(others.map(async ([name, f]) => ({ fileName: f.name || name, bytes: new Uint8Array(await f.arrayBuffer()), contentType: f.type })))),
          ])
          const symbols = await symbolicateMinidump(deps, caller.project.id, dumpBytes)
          const submission = mapped
            ? withMinidump(submissionOfEvent(caller.project, mapped, { attachments: files }), dump, symbols)
            : submissionOfMinidump(caller.project, dump, { attachments: files }, 'minidump upload', symbols)
          const eventId = mapped?.eventId ?? crypto.randomUUID().replace(/-/g, '')
          await ingest(deps, { ...submission, eventId, client: mapped ? clientOf(mapped.sdk) : 'minidump upload' })
          return textAnswer(eventId)
        })
      },
      { ...RAW, params: dsnParams, detail: { tags: TAGS, summary: 'Minidump upload (Breakpad, Crashpad, sentry-native): multipart upload_file_minidump, optional sentry event JSON, other files attached' } },
    )
    .post(
      '/api/:dsnId/unreal/:apiKey',
      async ({ params, request }) => {
        const caller = await sentryCaller(db, params.dsnId, params.apiKey)
        const body = await readLimited(request.body, SENTRY_BODY_LIMITS.maxWireBytes)
        if (!body) throw payloadTooLarge(`request body too large (max ${SENTRY_BODY_LIMITS.maxWireBytes / 1024 / 1024} MB)`)
        const parse = (share: number) =>
          parseUnrealCrash(body, { maxDecodedBytes: share }).catch((err: unknown) => {
            if (err instanceof UnrealCrashError && err.reason === 'too_large' && share < MAX_UNREAL_DECODED) return null
            throw err instanceof UnrealCrashError ? new AppError(err.status, `the Unreal crash report cannot be read: ${err.message}`) : err
          })
        return decodeBudget.within(MAX_UNREAL_DECODED, parse, async (crash) => {
          const kept = [crash.minidump, crash.appleCrashReport, ...crash.logs].filter((f) => f !== undefined)
          const files = await storeCrashFiles(deps, kept.map((f) => ({ fileName: f.name, bytes: f.bytes, contentType: f.kind === 'minidump' ? 'application/x-minidump' : 'text/plain' })))
          const eventId = crypto.randomUUID().replace(/-/g, '')
          const native = await unrealNative(caller.project.id, crash.minidump)
          await ingest(deps, { ...submissionOfUnreal(caller.project, crash, readUnrealQuery(new URL(request.url).searchParams), files, native), eventId })
          return textAnswer(eventId)
        })
      },
      {
        ...RAW,
        params: dsnParams.extend({ apiKey: z.string().describe("The project's SDK key") }),
        detail: { tags: TAGS, summary: "Unreal Engine CrashReportClient upload (DataRouterUrl): the compressed crash container with its context, minidump and logs" },
      },
    )
}
