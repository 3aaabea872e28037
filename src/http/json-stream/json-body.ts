import { bodyLimitFor } from '../body-limit'
import { bodyTooLarge } from '../errors'
import { apiPathOf, pathOf } from '../pipeline'
import { parseJsonCapped } from './json-depth'
import { JsonStreamParser, type PathPattern } from './json-parser'
import { SpillSet } from './spill'

/** Bodies up to this size (by Content-Length) are left to Elysia's JSON.parse, the fastest for them. */
export const SMALL_BODY = 64 * 1024

export interface StreamedJsonOptions {
  /** String values at these paths are base64 files: decoded into temp files as they arrive. */
  base64Paths: readonly PathPattern[]
  /** Largest decoded file kept; past it bytes are only counted. */
  maxFileBytes: number
  /** A fresh path in the temp folder (`FileStorage.tempPath`). */
  tempPath: () => string
  /** Runs before a big body is read; throwing refuses the request without reading it. */
  beforeRead?: (request: Request) => void | Promise<void>
  /** Most bytes of JSON besides the base64 files (400 past it, found while reading); unlimited when absent. */
  maxJsonBesideFiles?: number
}

/**
 * Route hooks (`parse`, `afterResponse`) for JSON bodies carrying big base64 files: the body is
 * parsed chunk by chunk as it arrives, each base64 value at `base64Paths` is decoded into a temp file
 * and replaced by a placeholder that `spilledBase64` resolves, so the route's schema checks the body
 * as usual and the handler moves the files into storage. Reading stops with 400 past the route's
 * body limit (a chunked body has no Content-Length to check up front). Temp files still there after
 * the response (the request failed, or a file was not kept) are deleted. The body is read as JSON
 * whatever its Content-Type says (the API's bodies are JSON); the docs show it as such.
 */
export function streamedJsonBody(opts: StreamedJsonOptions) {
  const spills = new WeakMap<Request, SpillSet>()
  const streamed = ({ request }: { request: Request }): Promise<unknown> | undefined => {
    const length = request.headers.get('content-length')
    if (length !== null && Number(length) <= SMALL_BODY) return undefined
    return readChecked(request)
  }
  const readChecked = async (request: Request): Promise<unknown> => {
    await opts.beforeRead?.(request)
    const set = new SpillSet(opts.tempPath, opts.maxFileBytes)
    spills.set(request, set)
    return readJson(request.body, bodyLimitFor(apiPathOf(pathOf(request.url)) ?? ''), opts, set)
  }
  return {
    // When `streamed` leaves the body (a small one), Elysia's own JSON parser takes it.
    parse: [streamed, 'application/json'] as [typeof streamed, 'application/json'],
    async afterResponse({ request }: { request: Request }): Promise<void> {
      await spills.get(request)?.dispose()
    },
  }
}

const utf8 = new TextDecoder()

/**
 * Parses a body stream. Up to `SMALL_BODY` it is only gathered (and JSON.parse'd if it ends there);
 * past it, the parser takes over, waiting for each chunk's file writes before taking the next chunk.
 */
async function readJson(body: ReadableStream<Uint8Array> | null, limit: number, opts: Pick<StreamedJsonOptions, 'base64Paths' | 'maxJsonBesideFiles'>, spills: SpillSet): Promise<unknown> {
  let parser: JsonStreamParser | null = null
  const head: Uint8Array[] = []
  let size = 0
  try {
    for await (const chunk of body ?? []) {
      size += chunk.byteLength
      if (size > limit) throw bodyTooLarge(limit)
      if (!parser) {
        head.push(chunk)
        if (size <= SMALL_BODY) continue
        const besides = opts.maxJsonBesideFiles
        parser = new JsonStreamParser({
          sinkPaths: opts.base64Paths,
          open: () => spills.open(),
          ...(besides !== undefined && { maxOutsideSinks: { bytes: besides, tooLarge: () => bodyTooLarge(besides, 'the JSON besides the files is') } }),
        })
        head.forEach((c, k) => parser!.write(k === 0 ? withoutBom(c) : c))
        head.length = 0
      } else parser.write(chunk)
      await spills.drain()
      if (parser) release(chunk)
    }
    if (!parser) return parseJsonCapped(utf8.decode(Buffer.concat(head)))
    const value = parser.end()
    await spills.drain()
    return value
  } catch (err) {
    await spills.dispose()
    throw err
  }
}

/**
 * Frees a body chunk's memory now instead of at the next collection: the parser copies what it
 * keeps, so nothing refers to it after `write`. Under four concurrent 5 MB uploads this took the
 * peak RSS from 283-298 MB to 219-227 MB (dead chunks awaiting GC held up to ~120 MB, and the
 * allocator keeps pages it once used). Only a chunk that owns its whole buffer is released.
 */
function release(chunk: Uint8Array): void {
  const buffer = chunk.buffer
  if (buffer instanceof ArrayBuffer && chunk.byteOffset === 0 && chunk.byteLength === buffer.byteLength) buffer.transfer(0)
}

// request.json() accepts a UTF-8 byte order mark; so does this.
const withoutBom = (b: Uint8Array) => (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b)
