// Run by decode-body.test.ts in a process of its own, so that its memory figures are this decoding's
// alone (test files share one process). Prints one JSON line: the refusal, time and memory.
// Usage: bun test/sentry/decode-bomb.child.ts gzip|br
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import { decodeBody } from '../../src/modules/sentry/protocol/decode-body'
import { streamOf } from './sentry-helpers'

const MB = 1024 * 1024
const encoding = process.argv[2] as 'gzip' | 'br'

/**
 * 1000 MiB of zeros as ten gzip members of 100 MiB (about 100 KB each; gunzip reads members one after
 * another), compressed as a stream so the plain bytes are never held.
 */
async function gzipBomb(): Promise<Buffer> {
  const chunk = Buffer.alloc(MB)
  const parts: Buffer[] = []
  const zeros = Readable.from((function* () {
    for (let i = 0; i < 100; i++) yield chunk
  })())
  for await (const part of zeros.pipe(zlib.createGzip({ level: 9 }))) parts.push(part as Buffer)
  return Buffer.concat(Array(10).fill(Buffer.concat(parts)))
}

/**
 * This process's peak resident memory. VmHWM belongs to the process's own address space; getrusage's
 * maxRSS does not: Linux carries the parent's peak across fork and exec, so under a test runner of
 * 1.4 GB a child's maxRSS starts at 1.4 GB whatever it does.
 */
function peakRss(): number {
  const status = (() => {
    try {
      return readFileSync('/proc/self/status', 'utf8')
    } catch {
      return ''
    }
  })()
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]
  return kb ? Number(kb) * 1024 : process.resourceUsage().maxRSS * 1024
}

const bomb = encoding === 'gzip' ? await gzipBomb() : readFileSync(join(import.meta.dir, 'fixtures', 'zeros-1gib.br'))
Bun.gc(true)
const before = process.memoryUsage().rss
const started = performance.now()
const outcome = await decodeBody(streamOf(bomb).stream, encoding).then(
  (b) => ({ status: 200, message: `decoded ${b.length} bytes` }),
  (e: { status?: number; message?: string }) => ({ status: e.status ?? 500, message: e.message ?? String(e) }),
)
console.log(JSON.stringify({ ...outcome, bombBytes: bomb.length, ms: Math.round(performance.now() - started), rssBeforeMB: Math.round(before / MB), peakGrowthMB: Math.round((peakRss() - before) / MB) }))
