import { promisify } from 'node:util'
import zlib from 'node:zlib'
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
    bytes: () => new Uint8Array(Buffer.concat(chunks, size)),
  }
}

type Decompress = (input: Uint8Array, options: zlib.ZlibOptions | zlib.BrotliOptions) => Promise<Buffer>
const decompressors: Record<'gzip' | 'br' | 'zlib' | 'raw', Decompress> = {
  gzip: promisify(zlib.gunzip),
  br: promisify(zlib.brotliDecompress),
  zlib: promisify(zlib.inflate),
  raw: promisify(zlib.inflateRaw),
}

/**
 * Inflates a whole compressed body in one call off the request thread, with zlib's own output cap:
 * past `max` bytes it stops and fails (ERR_BUFFER_TOO_LARGE), so a bomb costs at most the cap, on
 * any machine. (Streaming decoders, node:zlib's and DecompressionStream alike, inflated ahead of
 * their reader on a busy machine: 500 MB to 1.2 GB of RSS for a 1 MB gzip bomb.)
 */
async function inflate(encoding: Exclude<Encoding, 'identity'>, compressed: Uint8Array, max: number): Promise<Uint8Array> {
  const kind = encoding === 'deflate' ? (isZlibHeader(compressed) ? 'zlib' : 'raw') : encoding
  try {
    return new Uint8Array(await decompressors[kind](compressed, { maxOutputLength: Math.max(1, max) }))
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(`request body too large once decompressed (max ${sizeText(max)})`)
    throw malformed(`the ${encoding} body is corrupt or truncated`)
  }
}

/**
 * Reads a request body and undoes its `Content-Encoding` (gzip, deflate with or without the zlib
 * wrapper, br, or none): 413 as soon as more than `maxWireBytes` arrive, or once more than
 * `maxDecodedBytes` would come out (decompression stops there, so a bomb costs at most the cap);
 * 400 for a corrupt or truncated body or an unknown encoding.
 */
export async function decodeBody(body: ReadableStream<Uint8Array> | null, contentEncoding: string | null | undefined, limits: BodyLimits = SENTRY_BODY_LIMITS): Promise<Uint8Array> {
  const encoding = contentEncodingOf(contentEncoding)
  if (!body) return new Uint8Array()
  const reader = body.getReader()
  // Read as it arrives, refused at once past the cap: a compressed body past 20 MB, or a plain one past 100 MB.
  const wire = collector(encoding === 'identity' ? Math.min(limits.maxWireBytes, limits.maxDecodedBytes) : limits.maxWireBytes)
  try {
    for await (const chunk of wireChunks(reader)) wire.push(chunk)
  } finally {
    // Ends a read still waiting for the client: after a refusal nothing more of the body is wanted.
    reader.cancel().catch(() => {})
  }
  const bytes = wire.bytes()
  return encoding === 'identity' ? bytes : inflate(encoding, bytes, limits.maxDecodedBytes)
}
