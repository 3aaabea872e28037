import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** A request-body stream over `bytes` in `chunk`-byte pieces; `pulled()` says how many bytes were handed out. */
export function streamOf(bytes: Uint8Array, chunk = 64 * 1024) {
  let at = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= bytes.length) return c.close()
      c.enqueue(bytes.slice(at, at + chunk))
      at += chunk
    },
  })
  return { stream, pulled: () => Math.min(at, bytes.length) }
}

/** A file under test/sentry/fixtures. */
export const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name))

/** An envelope body from its header and items (`[item header, payload]`), joined with newlines. */
export function envelopeOf(header: object, items: [object, string | Uint8Array][], trailingNewline = true): Uint8Array {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(header))]
  for (const [h, payload] of items) parts.push(Buffer.from(`\n${JSON.stringify(h)}\n`), Buffer.from(payload))
  if (trailingNewline) parts.push(Buffer.from('\n'))
  return new Uint8Array(Buffer.concat(parts))
}
