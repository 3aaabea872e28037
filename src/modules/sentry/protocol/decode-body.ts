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
export const isZlibHeader = (b: Uint8Array) => b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0

/** The DecompressionStream format of an encoding, the deflate variant told by the first bytes. */
function formatOf(encoding: Exclude<Encoding, 'identity'>, head: Uint8Array): CompressionFormat {
  if (encoding === 'gzip') return 'gzip'
  if (encoding === 'br') return 'brotli' as CompressionFormat
  return isZlibHeader(head) ? 'deflate' : 'deflate-raw'
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
 * Inflates the wire chunks into `out` through a DecompressionStream, pulled one output chunk at a
 * time: the decoder only works while `out` asks for more, so once the cap is passed (or the input
 * turns out corrupt) nothing more is inflated, however much a bomb would have made (the streaming
 * zlib of node:zlib, driven by 'data' events, inflated a whole written chunk ahead: 1.2 GB of RSS for
 * a 1 MB gzip bomb on a busy machine).
 */
async function inflate(encoding: Exclude<Encoding, 'identity'>, chunks: AsyncGenerator<Uint8Array>, out: ReturnType<typeof collector>): Promise<void> {
  // The deflate variant is told by the first two bytes: gather them before choosing the decoder.
  let head: Uint8Array = new Uint8Array()
  for (let next = await chunks.next(); ; next = await chunks.next()) {
    if (next.done) break
    head = head.length ? Buffer.concat([head, next.value]) : next.value
    if (head.length >= 2) break
  }
  // A failure of the body itself (its size, its reading) wins over what the decoder makes of it.
  let wireError: unknown
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head)
    },
    async pull(controller) {
      try {
        const next = await chunks.next()
        if (next.done) controller.close()
        else controller.enqueue(next.value)
      } catch (err) {
        wireError = err
        controller.error(err)
      }
    },
  })
  const decoded = source.pipeThrough(new DecompressionStream(formatOf(encoding, head)) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>).getReader()
  try {
    for (;;) {
      const next = await decoded.read()
      if (next.done) return
      out.push(next.value)
    }
  } catch (err) {
    throw wireError ?? err
  } finally {
    decoded.cancel().catch(() => {})
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
