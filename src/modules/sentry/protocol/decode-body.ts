import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import { malformed, SentryProtocolError, tooLarge } from './protocol-error'

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

/** The body's chunks, ended with 413 once they pass `max` bytes; the stream is cancelled when left early. */
async function* wireChunks(body: ReadableStream<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  let size = 0
  try {
    for (;;) {
      const next = await reader.read().catch(() => {
        throw malformed('the request body could not be read')
      })
      if (next.done) return
      size += next.value.byteLength
      if (size > max) throw tooLarge(`request body too large (max ${sizeText(max)})`)
      yield next.value
    }
  } finally {
    reader.cancel().catch(() => {})
  }
}

/**
 * A zlib-wrapped deflate stream starts with a two-byte header whose CM nibble is 8 and whose value
 * is a multiple of 31 (RFC 1950); raw deflate (what some clients send as `deflate`) never passes both.
 */
const isZlibHeader = (b: Uint8Array) => b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0

/** The first bytes of a chunk iterator (at least `n` unless it ends sooner) and an iterator over all of it. */
async function peek(chunks: AsyncGenerator<Uint8Array>, n: number): Promise<{ head: Uint8Array; all: AsyncGenerator<Uint8Array> }> {
  const seen: Uint8Array[] = []
  let size = 0
  while (size < n) {
    const next = await chunks.next()
    if (next.done) break
    seen.push(next.value)
    size += next.value.byteLength
  }
  const head = Buffer.concat(seen)
  async function* all() {
    try {
      if (head.byteLength) yield head
      yield* chunks
    } finally {
      await chunks.return(undefined)
    }
  }
  return { head, all: all() }
}

function decoderFor(encoding: Exclude<Encoding, 'identity'>, head: Uint8Array) {
  if (encoding === 'gzip') return zlib.createGunzip()
  if (encoding === 'br') return zlib.createBrotliDecompress()
  return isZlibHeader(head) ? zlib.createInflate() : zlib.createInflateRaw()
}

/** Collects chunks, ending with 413 once they pass `max` bytes (so a bomb stops inflating there). */
function collector(max: number) {
  const chunks: Uint8Array[] = []
  let size = 0
  return {
    async sink(source: AsyncIterable<Uint8Array>) {
      for await (const chunk of source) {
        size += chunk.byteLength
        if (size > max) throw tooLarge(`request body too large once decompressed (max ${sizeText(max)})`)
        chunks.push(chunk)
      }
    },
    bytes: () => new Uint8Array(Buffer.concat(chunks, size)),
  }
}

/**
 * Reads a request body and undoes its `Content-Encoding` (gzip, deflate with or without the zlib
 * wrapper, br, or none) as it streams in: 413 once more than `maxWireBytes` arrive or more than
 * `maxDecodedBytes` come out (decompression stops there, so a bomb costs at most the cap), 400 for a
 * corrupt or truncated stream or an unknown encoding.
 */
export async function decodeBody(body: ReadableStream<Uint8Array> | null, contentEncoding: string | null | undefined, limits: BodyLimits = SENTRY_BODY_LIMITS): Promise<Uint8Array> {
  const encoding = contentEncodingOf(contentEncoding)
  if (!body) return new Uint8Array()
  const wire = wireChunks(body, encoding === 'identity' ? Math.min(limits.maxWireBytes, limits.maxDecodedBytes) : limits.maxWireBytes)
  const out = collector(limits.maxDecodedBytes)
  try {
    if (encoding === 'identity') {
      await out.sink(wire)
    } else {
      const { head, all } = await peek(wire, 2)
      await pipeline(Readable.from(all, { objectMode: false }), decoderFor(encoding, head), out.sink)
    }
  } catch (err) {
    if (err instanceof SentryProtocolError) throw err
    throw malformed(`the ${encoding} body is corrupt or truncated`)
  } finally {
    await wire.return(undefined)
  }
  return out.bytes()
}
