// Issue 28, finding 1: the memory of 50 decompression bombs sent at once to the Sentry envelope route,
// (a) to a DSN id that does not exist (key in the envelope header only) and (b) with a valid key, while
// /health keeps answering. Prints the process RSS before and at its peak, the answers, and the decoding
// budget's peak. The app runs in this process (app.handle), so the RSS is the server's plus 50 small
// request bodies. Run: bun scripts/bench/decode-bombs.ts
import { createGzip } from 'node:zlib'
import { createApp } from '../../src/app'
import { forgetSdkCallers } from '../../src/http/sdk-callers'
import { projects } from '../../src/modules/projects/projects.table'
import { inProcessProject } from './in-process'
import { hardware } from './lib'

const MB = 1024 * 1024
const CONCURRENT = 50

/** About 1 MB of gzip that inflates to `decodedMb` MB of zeros, behind an envelope header naming `dsn` (compressed by streaming: no 1 GB buffer). */
async function bomb(dsn: string, decodedMb: number): Promise<Uint8Array<ArrayBuffer>> {
  const gzip = createGzip({ level: 9 })
  const out: Buffer[] = []
  gzip.on('data', (c: Buffer) => out.push(c))
  const done = new Promise((resolve) => gzip.on('end', resolve))
  gzip.write(`${JSON.stringify({ dsn })}\n{"type":"attachment","length":${decodedMb * MB}}\n`)
  const zeros = Buffer.alloc(MB)
  for (let i = 0; i < decodedMb; i++) if (!gzip.write(zeros)) await new Promise((r) => gzip.once('drain', r))
  gzip.end()
  await done
  return new Uint8Array(Buffer.concat(out))
}

const { deps, project, close } = await inProcessProject('decode-bombs')
deps.db.update(projects).set({ dsnId: 4242 }).run()
forgetSdkCallers(deps.db)
// Memory is measured here, not the rate limits (all requests come from one address in-process).
Object.assign(deps.config, { rateLimitPublic: 0, rateLimitGlobal: 0 })
const app = createApp(deps)
const key = project.apiKey

let peak = 0
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
const mb = (b: number) => `${Math.round(b / MB)} MB`

async function round(label: string, path: string, body: Uint8Array<ArrayBuffer>) {
  Bun.gc(true)
  await Bun.sleep(200)
  const before = process.memoryUsage().rss
  peak = before
  const started = performance.now()
  const healthMs: number[] = []
  let running = true
  const probe = (async () => {
    while (running) {
      const t0 = performance.now()
      const res = await app.handle(new Request('http://localhost/health'))
      await res.arrayBuffer()
      healthMs.push(performance.now() - t0)
      await Bun.sleep(50)
    }
  })()
  const answers = await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, i) => {
      const res = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', body, headers: { 'content-encoding': 'gzip', 'x-forwarded-for': `198.51.100.${i + 1}` } }))
      await res.arrayBuffer()
      return res.status
    }),
  )
  running = false
  await probe
  const counts: Record<number, number> = {}
  for (const s of answers) counts[s] = (counts[s] ?? 0) + 1
  console.log(
    `${label}: ${JSON.stringify(counts)} in ${Math.round(performance.now() - started)} ms; RSS ${mb(before)} before, peak ${mb(peak)} (+${mb(peak - before)}); ` +
      `decoding budget peak ${mb(deps.decodeBudget.peak)} of ${mb(deps.decodeBudget.options.capacity)}; /health answered ${healthMs.length} times, slowest ${Math.round(Math.max(...healthMs))} ms`,
  )
}

console.log(hardware())
const body = await bomb('http://sk_live_nobody@localhost/424242', 1000)
console.log(`bomb: ${mb(body.length)} of gzip, 1000 MB decoded (plus the header line)`)
await round(`${CONCURRENT} bombs to /api/424242/envelope/ (no such DSN, key in the header)`, '/api/424242/envelope/', body)
await round(`${CONCURRENT} bombs to /api/4242/envelope/ with a wrong key in the header`, '/api/4242/envelope/', body)
await round(`${CONCURRENT} bombs to /api/4242/envelope/ with the valid key`, `/api/4242/envelope/?sentry_key=${key}`, body)
clearInterval(sampler)
close()
