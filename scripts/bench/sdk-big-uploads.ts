// Memory and event-loop latency while big base64 submits arrive: the app listens in this process,
// CONNECTIONS clients post SHOT_MB screenshots (plus EXTRA_MB of attachments) in a loop for SECONDS
// while GET /health is probed every 5 ms. Prints peak RSS, /health p50/p99/max and uploads/s.
// By default the clients run in this process too (their buffers count in the RSS, their work delays
// the probes); CLIENT=child runs them in a child process, so the figures are the server's alone.
// HEAP=1 prints the JS heap and ArrayBuffer memory at each new RSS peak.
// Usage: CONNECTIONS=4 SHOT_MB=5 EXTRA_MB=0 SECONDS=10 CLIENT=inline|child HEAP=1 bun scripts/bench/sdk-big-uploads.ts
import { heapStats } from 'bun:jsc'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config/config'
import { buildDeps } from '../../src/deps'
import { MAX_REQUEST_BODY } from '../../src/http/body-limit'
import { newId, randomBase62 } from '../../src/lib/ids'
import { createLogger } from '../../src/lib/logger'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { projects } from '../../src/modules/projects/projects.table'
import { hardware } from './lib'

const connections = Number(process.env.CONNECTIONS ?? 4)
const seconds = Number(process.env.SECONDS ?? 10)
const shotMb = Number(process.env.SHOT_MB ?? 5)
const extraMb = Number(process.env.EXTRA_MB ?? 0)

interface ClientResult {
  uploads: number
  failures: number
  healthMs: number[]
  elapsed: number
}

/** `mb` megabytes of noise (incompressible, like a real screenshot) starting with `head`. */
function noise(mb: number, head: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(Math.round(mb * 1024 * 1024))
  for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(bytes.length, i + 65536)))
  bytes.set(head)
  return bytes
}

function submitBody(): Uint8Array<ArrayBuffer> {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
  return new TextEncoder().encode(
    JSON.stringify({
      title: 'Texture flicker in the forest level',
      description: 'The trees flicker when the camera turns quickly.',
      platform: 'Windows',
      screenshot: `data:image/png;base64,${Buffer.from(noise(shotMb, png)).toString('base64')}`,
      attachments: extraMb > 0 ? [{ filename: 'frame.png', mime_type: 'image/png', data: Buffer.from(noise(extraMb, png)).toString('base64') }] : undefined,
    }),
  )
}

/** Posts `body` on `connections` connections and probes /health every 5 ms for `seconds`; `onProbe` runs after each probe. */
async function load(url: string, key: string, body: Uint8Array<ArrayBuffer>, onProbe: () => void): Promise<ClientResult> {
  let stop = false
  let uploads = 0
  let failures = 0
  let counter = 0
  const healthMs: number[] = []
  const uploader = async () => {
    while (!stop) {
      const ip = ++counter
      const res = await fetch(`${url}/api/bugs/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-forwarded-for': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}` },
        body,
      })
      await res.arrayBuffer()
      if (res.status < 300) uploads++
      else if (failures++ === 0) console.error(`first failure: ${res.status}`)
    }
  }
  const prober = async () => {
    while (!stop) {
      const t0 = performance.now()
      await (await fetch(`${url}/health`)).arrayBuffer()
      healthMs.push(performance.now() - t0)
      onProbe()
      await Bun.sleep(Math.max(0, 5 - (performance.now() - t0)))
    }
  }
  const t0 = performance.now()
  const running = [prober(), ...Array.from({ length: connections }, uploader)]
  await Bun.sleep(seconds * 1000)
  stop = true
  await Promise.all(running)
  return { uploads, failures, healthMs, elapsed: (performance.now() - t0) / 1000 }
}

if (process.env.BENCH_CLIENT_OF) {
  // Child: the load generator only; the figures go back as one JSON line.
  const result = await load(process.env.BENCH_CLIENT_OF, process.env.BENCH_KEY!, submitBody(), () => {})
  console.log(JSON.stringify(result))
  process.exit(0)
}

const dir = mkdtempSync(join(tmpdir(), 'glitchbox-big-'))
const config = loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_LOG_LEVEL: 'warn' }, {}, 'bench')
const deps = buildDeps(config, { logger: createLogger('warn') })
const now = new Date()
const user = await createUserWithAccount(deps.db, { email: 'b@example.com', name: 'B', passwordHash: null }, 'studio', now)
const key = `sk_live_${randomBase62(40)}`
deps.db.insert(projects).values({ id: newId(), accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench', slug: 'bench', apiKey: key, createdAt: now, updatedAt: now }).run()
const server = createApp(deps).listen({ port: 0, hostname: '127.0.0.1', maxRequestBodySize: MAX_REQUEST_BODY, idleTimeout: 60 }).server!
const url = `http://127.0.0.1:${server.port}`

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`
const rssNow = () => process.memoryUsage.rss()
const vmHwm = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024
const inline = process.env.CLIENT !== 'child'
const body = inline ? submitBody() : null
Bun.gc(true)
const idleRss = rssNow()
let peakRss = idleRss
// Reading the RSS costs a /proc read: every 25 ms is enough next to VmHWM, the kernel's exact peak.
let lastSample = 0
const sample = () => {
  if (performance.now() - lastSample < 25) return
  lastSample = performance.now()
  const rss = rssNow()
  if (rss > peakRss && process.env.HEAP) {
    const h = heapStats()
    const m = process.memoryUsage()
    console.log(`rss ${mb(rss)} heap ${mb(h.heapSize)} extra ${mb(h.extraMemorySize)} ab ${mb(m.arrayBuffers)} ext ${mb(m.external)} objs ${h.objectCount}`)
  }
  peakRss = Math.max(peakRss, rss)
}

console.log(hardware())
console.log(`screenshot ${shotMb} MB${extraMb ? ` + attachment ${extraMb} MB` : ''} decoded, ${connections} connections, ${seconds} s, clients ${inline ? 'in this process' : 'in a child process'}`)
let result: ClientResult
if (body) result = await load(url, key, body, sample)
else {
  const sampler = setInterval(sample, 25)
  const child = Bun.spawn([process.execPath, import.meta.path], { env: { ...process.env, BENCH_CLIENT_OF: url, BENCH_KEY: key }, stdout: 'pipe', stderr: 'inherit' })
  const out = await new Response(child.stdout).text()
  await child.exited
  clearInterval(sampler)
  result = JSON.parse(out.trim().split('\n').at(-1)!) as ClientResult
}
const sorted = result.healthMs.sort((a, b) => a - b)
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(1)
console.log(`rss idle ${mb(idleRss)}, peak sampled ${mb(peakRss)}, VmHWM ${mb(vmHwm())}`)
console.log(`/health ${sorted.length} probes: p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`)
console.log(`uploads ${result.uploads} ok, ${result.failures} failed, ${(result.uploads / result.elapsed).toFixed(1)}/s`)
server.stop(true)
rmSync(dir, { recursive: true, force: true })
