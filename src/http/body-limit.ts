const MB = 1024 * 1024

/** Largest body the server accepts at all (replays: 50 MB plus multipart framing). */
export const MAX_REQUEST_BODY = 52 * MB

const limits: [RegExp, number][] = [
  [/^\/session-replays$/, MAX_REQUEST_BODY],
  [/^\/bugs\/submit$/, 20 * MB],
  [/^\/projects\/[^/]+\/import$/, 20 * MB],
  // Base64 of a 10 MB file is 13.4 MB; multipart uploads of 10 MB carry some framing.
  [/^\/bugs\/[^/]+\/attachments$/, 14 * MB],
  [/^\/projects\/[^/]+\/bugs\/\d+\/attachments$/, 11 * MB],
  [/^\/projects\/[^/]+\/widget-settings\/background$/, 6 * MB],
]

/** Request body limit in bytes for a path under /api (prefix removed); 1 MB unless listed. */
export function bodyLimitFor(apiPath: string): number {
  for (const [re, limit] of limits) if (re.test(apiPath)) return limit
  return 1 * MB
}


/** Reads a request body up to `limit` bytes; past it, stops reading and returns null. */
export async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.byteLength
    if (size > limit) {
      await body.cancel().catch(() => {})
      return null
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
