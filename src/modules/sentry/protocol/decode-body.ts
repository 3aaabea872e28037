import { once } from 'node:events'
import type { Transform } from 'node:stream'
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

/** The body's chunks, ended with 413 once they pass `max` bytes. */
async function* wireChunks(reader: ReadableStreamDefaultReader<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  let size = 0
  for (;;) {
    const next = await reader.read().catch(() => {
      throw malformed('the request body could not be read')
    })
    if (next.done) return
    size += next.value.byteLength
    if (size > max) throw tooLarge(`request body too large (max ${sizeText(max)})`)
    yield next.value
  }
}

/**
 * A zlib-wrapped deflate stream starts with a two-byte header whose CM nibble is 8 and whose value
 * is a multiple of 31 (RFC 1950); raw deflate (what some clients send as `deflate`) never passes both.
 */
const isZlibHeader = (b: Uint8Array) => b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0

function decoderFor(encoding: Exclude<Encoding, 'identity'>, head: Uint8Array): Transform {
  if (encoding === 'gzip') return zlib.createGunzip()
  if (encoding === 'br') return zlib.createBrotliDecompress()
  return isZlibHeader(head) ? zlib.createInflate() : zlib.createInflateRaw()
}

/** Collects chunks; `push` throws 413 once they pass `max` bytes. */
function collector(max: number) {
  const chunks: Uint8Array[] = []
  let size = 0
  return {
    push(chunk: Uint8Array) {
      size += chunk.byteLength
      if (size > max) throw tooLarge(`request body too large once decompressed (max ${sizeText(max)})`)
      chunks.push(chunk)
    },
    bytes: () => new Uint8Array(Buffer.concat(chunks, size)),
  }
}

/**
 * Feeds `chunks` through the decoder into `out`, waiting for the decoder to drain before the next
 * chunk. The first failure (corrupt input, a cap passed) destroys the decoder at once, so a bomb
 * stops inflating there, and rejects without waiting for the rest of the body.
 */
function inflate(encoding: Exclude<Encoding, 'identity'>, chunks: AsyncGenerator<Uint8Array>, out: ReturnType<typeof collector>): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = new AbortController()
    let decoder: Transform | undefined
    const fail = (err: unknown) => {
      if (stop.signal.aborted) return
      stop.abort()
      decoder?.destroy()
      reject(err)
    }
    // The deflate variant is told by the first two bytes, so the decoder starts once they are in.
    const started = (head: Uint8Array) => {
      decoder = decoderFor(encoding, head)
      decoder.on('data', (chunk: Buffer) => {
        try {
          out.push(chunk)
        } catch (err) {
          fail(err)
        }
      })
      decoder.on('error', fail)
      decoder.on('end', resolve)
      return decoder
    }
    const pump = async () => {
      let head = new Uint8Array()
      for await (const chunk of chunks) {
        if (stop.signal.aborted) return
        if (!decoder && head.length + chunk.length < 2) {
          head = Buffer.concat([head, chunk])
          continue
        }
        const input = decoder ? chunk : Buffer.concat([head, chunk])
        const target = decoder ?? started(input)
        if (!target.write(input)) await once(target, 'drain', { signal: stop.signal })
      }
      if (stop.signal.aborted) return
      // A body shorter than two bytes still goes through the decoder (which calls it truncated).
      if (decoder) decoder.end()
      else started(head).end(head)
    }
    pump().catch(fail)
  })
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
  const reader = body.getReader()
  const out = collector(limits.maxDecodedBytes)
  try {
    if (encoding === 'identity') for await (const chunk of wireChunks(reader, Math.min(limits.maxWireBytes, limits.maxDecodedBytes))) out.push(chunk)
    else await inflate(encoding, wireChunks(reader, limits.maxWireBytes), out)
    return out.bytes()
  } catch (err) {
    if (err instanceof SentryProtocolError) throw err
    throw malformed(`the ${encoding} body is corrupt or truncated`)
  } finally {
    // Ends a read still waiting for the client: after a refusal nothing more of the body is wanted.
    reader.cancel().catch(() => {})
  }
}
