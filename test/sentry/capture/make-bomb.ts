// Writes test/sentry/fixtures/zeros-1gib.br: 1 GiB of zeros as a brotli stream of under 1 KB, the
// decompression bomb of test/sentry/decode-body.test.ts (compressing it takes seconds, so it is kept).
// Run: bun test/sentry/capture/make-bomb.ts
import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'

const MB = 1024 * 1024
const chunk = Buffer.alloc(MB)
async function* zeros() {
  for (let i = 0; i < 1024; i++) yield chunk
}
const out = join(import.meta.dir, '..', 'fixtures', 'zeros-1gib.br')
await pipeline(
  Readable.from(zeros()),
  zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 } }),
  createWriteStream(out),
)
console.log(`wrote ${out}`)
