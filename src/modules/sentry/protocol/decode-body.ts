import type { BrotliOptions, ZlibOptions } from 'node:zlib'
import { zlib } from '../../../lib/zlib'
import { malformed, tooLarge } from './protocol-error'

const MB = 1024 * 1024

export interface BodyLimits {
  /** Most bytes read from the request (compressed, as sent). */
  maxWireBytes: number
  /** Most bytes after decompression. */
  maxDecodedBytes: number
}

/** CONTRACT.md § "Sentry SDKs": 20 MB on the wire, 100 MB decompressed. */
export const SENTRY_BODY_LIMITS: BodyLimits = { maxWireBytes: 20 * MB, maxDecodedBytes: 100 * MB }

type Encoding = 'identity' | 'gzip' | 'deflate' | 'br'

// Some SDKs put a charset where the encoding goes (`Content-Encoding: UTF-8`): that is no encoding.
const IDENTITY = new Set(['', 'identity', 'none', 'utf-8', 'utf8'])
const NAMED: Record<string, Encoding> = { gzip: 'gzip', 'x-gzip': 'gzip', deflate: 'deflate', br: 'br' }

/** The encoding named by a `Content-Encoding` value, or 400 for one this server cannot decode. */
export function contentEncodingOf(header: string | null | undefined): Encoding {
  const value = (header ?? '').trim().toLowerCase()
  if (IDENTITY.has(value)) return 'identity'
  const encoding = NAMED[value]
  if (!encoding) throw malformed(`unsupported Content-Encoding: ${value.slice(0, 40)}`)
  return encoding
}

const sizeText = (bytes: number) => (bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`)

/** The body's chunks as they arrive; 400 when the client's stream breaks. */
async function* wireChunks(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (;;) {
    const next = await reader.read().catch(() => {
      throw malformed('the request body could not be read')
    })
    if (next.done) return
    yield next.value
  }
}

/**
 * A zlib-wrapped deflate stream starts with a two-byte header whose CM nibble is 8 and whose value
 * is a multiple of 31 (RFC 1950); raw deflate (what some clients send as `deflate`) never passes both.
 */
export const isZlibHeader = (b: Uint8Array) => b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0

/** Collects chunks; `push` throws 413 once they pass `max` bytes. */
function collector(max: number) {
  const chunks: Uint8Array[] = []
  let size = 0
  return {
    push(chunk: Uint8Array) {
      size += chunk.byteLength
      if (size > max) throw tooLarge(`request body too large (max ${sizeText(max)})`)
      chunks.push(chunk)
    },
    get size() {
      return size
    },
    bytes: () => new Uint8Array(Buffer.concat(chunks, size)),
  }
}

type Kind = 'gzip' | 'br' | 'zlib' | 'raw'
type Callback = (err: Error | null, out: Buffer) => void
/** zlib's asynchronous decoder of a kind (it runs on zlib's thread pool), as a promise. */
function decompress(kind: Kind, input: Uint8Array, options: ZlibOptions | BrotliOptions): Promise<Buffer> {
  const z = zlib()
  const decode = { gzip: z.gunzip, br: z.brotliDecompress, zlib: z.inflate, raw: z.inflateRaw }[kind] as (input: Uint8Array, options: ZlibOptions | BrotliOptions, done: Callback) => void
  return new Promise((resolve, reject) => decode(input, options, (err, out) => (err ? reject(err) : resolve(out))))
}

/** The decoder of an encoding, zlib-wrapped deflate told from raw deflate by its first bytes. */
const kindOf = (encoding: Exclude<Encoding, 'identity'>, compressed: Uint8Array) => (encoding === 'deflate' ? (isZlibHeader(compressed) ? 'zlib' : 'raw') : encoding)

const isTooLarge = (err: unknown) => (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'

/**
 * Inflates a whole compressed body in one call off the request thread, with zlib's own output cap:
 * past `max` bytes it stops and fails (ERR_BUFFER_TOO_LARGE), so a bomb costs at most the cap, on
 * any machine. (Streaming decoders, node:zlib's and DecompressionStream alike, inflated ahead of
 * their reader on a busy machine: 500 MB to 1.2 GB of RSS for a 1 MB gzip bomb.) Returns null past
 * `max` when `max` is a share below the limit `limit` (413 past the limit itself).
 */
async function inflate(encoding: Exclude<Encoding, 'identity'>, compressed: Uint8Array, max: number, limit: number): Promise<Uint8Array | null> {
  try {
    const out = await decompress(kindOf(encoding, compressed), compressed, { maxOutputLength: Math.max(1, max) })
    // A view of zlib's buffer, not a copy: a copy doubled the memory of every large body.
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
  } catch (err) {
    if (isTooLarge(err) && max < limit) return null
    if (isTooLarge(err)) throw tooLarge(`request body too large once decompressed (max ${sizeText(limit)})`)
    throw malformed(`the ${encoding} body is corrupt or truncated`)
  }
}

/** zlib's synchronous decoder of a kind, set to decode a stream cut short as far as it goes (the rest of the body has not arrived or is not wanted). */
function partialDecoder(kind: Kind): (input: Uint8Array, maxOutputLength: number) => Buffer {
  const z = zlib()
  if (kind === 'br') return (input, maxOutputLength) => z.brotliDecompressSync(input, { finishFlush: z.constants.BROTLI_OPERATION_FLUSH, maxOutputLength })
  const decode = { gzip: z.gunzipSync, zlib: z.inflateSync, raw: z.inflateRawSync }[kind]
  return (input, maxOutputLength) => decode(input, { finishFlush: z.constants.Z_SYNC_FLUSH, maxOutputLength })
}

/**
 * The decoded start of a compressed body, at most `max` bytes: what the longest start of
 * `compressed` that decodes within `max` gives (a binary search over its length; output only grows
 * with input), so the work is a few small decodes however far the body would inflate.
 */
function decodedStart(encoding: Exclude<Encoding, 'identity'>, compressed: Uint8Array, max: number): Uint8Array {
  const decode = partialDecoder(kindOf(encoding, compressed))
  const attempt = (length: number): Uint8Array | null => {
    try {
      return decode(compressed.subarray(0, length), max)
    } catch (err) {
      if (isTooLarge(err)) return null
      throw malformed(`the ${encoding} body is corrupt`)
    }
  }
  const whole = attempt(compressed.length)
  if (whole) return whole
  let good = 0
  let bad = compressed.length
  let best: Uint8Array = new Uint8Array()
  while (bad - good > 1) {
    const mid = (good + bad) >> 1
    const out = attempt(mid)
    if (out) {
      good = mid
      best = out
    } else bad = mid
  }
  return best
}

/** A request body being read: its decoded first line can be had before the rest is read. */
export interface SentryBody {
  /**
   * The decoded body up to its first newline included (an envelope's header line), or the first
   * `max` decoded bytes when no newline comes before them (or the whole body when shorter): reads
   * no more of the body than that takes, and decodes no more than `max` bytes.
   */
  firstLine(max: number): Promise<Uint8Array>
  /** Reads the rest of the body as sent (413 past `maxWireBytes`), decoding nothing yet. */
  receive(): Promise<void>
  /**
   * The whole body, read to its end and decoded: null when it decodes past `share` bytes (a share
   * of the server's decoding budget below the limit: ask again with a larger one); 413 past the limits.
   */
  decoded(share?: number): Promise<Uint8Array | null>
}

const NEWLINE = 0x0a

/**
 * Opens a request body with its `Content-Encoding` (gzip, deflate with or without the zlib wrapper,
 * br, or none; 400 for another): 413 as soon as more than `maxWireBytes` arrive, or once more than
 * `maxDecodedBytes` would come out (decompression stops there, so a bomb costs at most the cap);
 * 400 for a corrupt or truncated body.
 */
export function openBody(body: ReadableStream<Uint8Array> | null, contentEncoding: string | null | undefined, limits: BodyLimits = SENTRY_BODY_LIMITS): SentryBody {
  const encoding = contentEncodingOf(contentEncoding)
  const reader = body?.getReader()
  // Read as it arrives, refused at once past the cap: a compressed body past 20 MB, or a plain one past 100 MB.
  const wire = collector(encoding === 'identity' ? Math.min(limits.maxWireBytes, limits.maxDecodedBytes) : limits.maxWireBytes)
  const chunks = reader ? wireChunks(reader) : null
  let ended = !chunks
  /** Reads one more chunk; false at the end. Ends a read still waiting for the client after a refusal. */
  const readMore = async (): Promise<boolean> => {
    if (ended) return false
    try {
      const next = await chunks!.next()
      if (next.done) ended = true
      else wire.push(next.value)
    } catch (err) {
      ended = true
      reader!.cancel().catch(() => {})
      throw err
    }
    return !ended
  }
  return {
    async firstLine(max) {
      for (;;) {
        const sent = wire.bytes()
        const start = encoding === 'identity' ? sent.subarray(0, max) : decodedStart(encoding, sent, max)
        const newline = start.indexOf(NEWLINE)
        if (newline >= 0) return start.subarray(0, newline + 1)
        // A header line fits in `max` decoded bytes, so in about as many sent ones (a gzip name field could grow without end).
        if (start.length >= max || wire.size > 2 * max + 1024) return start
        if (!(await readMore())) return start
      }
    },
    async receive() {
      while (await readMore());
    },
    async decoded(share = limits.maxDecodedBytes) {
      if (!reader) return new Uint8Array()
      await this.receive()
      const bytes = wire.bytes()
      const max = Math.min(share, limits.maxDecodedBytes)
      if (encoding !== 'identity') return inflate(encoding, bytes, max, limits.maxDecodedBytes)
      return bytes.length > max ? null : bytes
    },
  }
}

/** Reads a whole request body and undoes its `Content-Encoding`, within the limits (see openBody). */
export async function decodeBody(body: ReadableStream<Uint8Array> | null, contentEncoding: string | null | undefined, limits: BodyLimits = SENTRY_BODY_LIMITS): Promise<Uint8Array> {
  return (await openBody(body, contentEncoding, limits).decoded())!
}
