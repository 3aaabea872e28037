// Server CPU per filing (POST /api/bugs/submit with an SDK key), for any checkouts, side by side.
// CPU time rather than throughput: on a shared machine requests per second follow whatever else runs,
// while the CPU the server process spends (every thread: HTTP, SQLite, the job thread) per filing
// barely does. Each checkout's own server runs as a child process on a data directory seeded by that
// checkout's own helper (scripts/bench/sdk-load.ts `seedDataDir`: synchronous in older commits,
// async later; awaited, both work). The bench process drives it with 32 concurrent fetches of the
// 2 KB report template, distinct titles ("new": a report each) or one title ("stacked": occurrences
// of one report), each from its own client IP (the per-IP rate limit stays on, as in production),
// and reads utime+stime of the server from /proc/<pid>/stat before and after (after the process has
// gone quiet, so work the filings deferred to the job thread is counted too).
// Usage: bun scripts/bench/ingest-cpu.ts CHECKOUT_A [CHECKOUT_B …]
//   FILINGS=3000 per measured run, WARMUP=1500, PAIRS=3 (rounds: A B A B …), CONCURRENCY=32,
//   BUN_ARGS='--cpu-prof-md --cpu-prof-dir=/tmp/prof' passes flags to the servers' bun, THREADS=1 prints
//   the new reports' CPU by thread (the job thread, the GC's and bun's helpers)
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createServer } from 'node:net'

const checkouts = process.argv.slice(2).map((d) => resolve(d))
if (!checkouts.length) {
  console.error('usage: bun scripts/bench/ingest-cpu.ts CHECKOUT_A [CHECKOUT_B …]')
  process.exit(2)
}
const FILINGS = Number(process.env.FILINGS ?? 3000)
const WARMUP = Number(process.env.WARMUP ?? 1500)
const ROUNDS = Number(process.env.PAIRS ?? 3)
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32)
const BUN_ARGS = (process.env.BUN_ARGS ?? '').split(' ').filter(Boolean)
const TICKS = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100

/** The same body as scripts/bench/sdk-load.ts `reportTemplate` (copied: identical for every checkout). */
function reportTemplate(): string {
  const description = 'When I open the inventory during the boss fight the game stutters and sometimes freezes completely. '
    .repeat(20)
    .slice(0, 1800)
  return JSON.stringify({ title: '%TITLE%', description, platform: 'Windows', game_version: '1.4.2', os_info: 'Windows 11 23H2', device_info: 'RTX 3060, 16 GB RAM', category: 'gameplay' })
}
const [BEFORE, AFTER] = reportTemplate().split('%TITLE%') as [string, string]
const WORDS = 'crash freeze stutter inventory boss texture audio menu lag save load level door enemy weapon shader physics camera player quest'.split(' ')

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => res(port))
    })
    srv.on('error', rej)
  })
}

/** CPU seconds (user+system) of a process so far: all its threads, or with `tid` one thread (the request thread's id is the pid). */
async function cpuSeconds(pid: number, tid?: number): Promise<number> {
  const stat = await Bun.file(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`).text()
  // Fields after the parenthesised name: state is field 3, utime 14, stime 15.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(rest[11]) + Number(rest[12])) / TICKS
}

/** CPU seconds of each thread of a process by its name (user+system), for THREADS=1. */
async function threadSeconds(pid: number): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = await Bun.file(`/proc/${pid}/task/${tid}/stat`).text().catch(() => '')
    if (!stat) continue
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    out.set(name, (out.get(name) ?? 0) + (Number(rest[11]) + Number(rest[12])) / TICKS)
  }
  return out
}

function printThreads(what: string, before: Map<string, number>, after: Map<string, number>): void {
  const rows = [...after].map(([name, sec]) => [name, ((sec - (before.get(name) ?? 0)) / FILINGS) * 1e6] as const)
  console.log(`  ${what}, µs per filing by thread: ${rows.filter(([, us]) => us >= 1).map(([name, us]) => `${name} ${us.toFixed(0)}`).join(', ')}`)
}

/** Waits until the process has used at most one tick in each of two consecutive 300 ms windows (at most 10 s). */
async function quiet(pid: number): Promise<void> {
  let calm = 0
  let last = await cpuSeconds(pid)
  for (let i = 0; i < 33 && calm < 2; i++) {
    await Bun.sleep(300)
    const now = await cpuSeconds(pid)
    calm = now - last <= 1 / TICKS + 1e-9 ? calm + 1 : 0
    last = now
  }
}

/** Seeds a data directory with the checkout's own helper; returns the project's SDK key. */
async function seed(checkout: string, dataDir: string): Promise<string> {
  const script = join(dataDir, '..', `seed-${Date.now()}-${Math.random().toString(36).slice(2)}.ts`)
  writeFileSync(script, `import { seedDataDir } from ${JSON.stringify(join(checkout, 'scripts/bench/sdk-load.ts'))}\nconsole.log('KEY=' + (await seedDataDir(${JSON.stringify(dataDir)})))\n`)
  const out = Bun.spawnSync([process.execPath, script], { cwd: checkout, env: { ...process.env, GLITCHBOX_LOG_LEVEL: 'warn' }, stdout: 'pipe', stderr: 'pipe' })
  rmSync(script, { force: true })
  const key = /KEY=(\S+)/.exec(out.stdout.toString())?.[1]
  if (!key) throw new Error(`seeding ${checkout} failed:\n${out.stderr.toString()}`)
  return key
}

async function start(checkout: string) {
  const root = mkdtempSync(join(tmpdir(), 'glitchbox-ingest-cpu-'))
  const dataDir = join(root, 'data')
  const apiKey = await seed(checkout, dataDir)
  const port = await freePort()
  const proc = Bun.spawn([process.execPath, '--max-http-header-size=65536', ...BUN_ARGS, join(checkout, 'src/main.ts'), 'serve'], {
    cwd: checkout,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', GLITCHBOX_DATA_DIR: dataDir, GLITCHBOX_LOG_LEVEL: 'warn', GLITCHBOX_TRUST_PROXY: 'true' },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  while (!(await fetch(`${url}/health`).then((r) => r.ok, () => false))) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill(9)
      throw new Error(`server of ${checkout} did not start: ${await new Response(proc.stderr).text()}`)
    }
    await Bun.sleep(100)
  }
  return {
    url,
    apiKey,
    pid: proc.pid,
    stop: async () => {
      proc.kill('SIGTERM')
      await proc.exited
      rmSync(root, { recursive: true, force: true })
    },
  }
}

let ipCounter = 0
/** Files `n` reports, CONCURRENCY at a time; throws unless every one is acknowledged with 2xx (201 new, 200 stacked). */
async function file(url: string, apiKey: string, n: number, title: (i: number) => string, expect: number): Promise<void> {
  let next = 0
  let wrong = 0
  let firstError = ''
  const worker = async () => {
    while (next < n) {
      const i = next++
      const c = ++ipCounter
      const res = await fetch(`${url}/api/bugs/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'x-forwarded-for': `10.${(c >> 16) & 255}.${(c >> 8) & 255}.${c & 255}` },
        body: BEFORE + title(i) + AFTER,
      })
      const text = await res.text()
      if (res.status !== expect) {
        wrong++
        firstError ||= `${res.status} ${text.slice(0, 300)}`
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  if (wrong) throw new Error(`${wrong} of ${n} filings not acknowledged with ${expect}: ${firstError}`)
}

const salt = () => Math.random().toString(36).slice(2, 8)
const distinct = (s: string) => (i: number) => `${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} report ${i} ${s}`

type Figures = { created: number; stacked: number; createdRequest: number; stackedRequest: number }

/** One run on a fresh server: µs of server CPU per new report and per stacked occurrence. */
async function run(checkout: string): Promise<Figures> {
  const server = await start(checkout)
  try {
    const s = salt()
    // Warm-up: both paths, so JIT tiers and caches are settled before anything is counted.
    await file(server.url, server.apiKey, WARMUP, distinct(`warm${s}`), 201)
    const same = `Inventory freezes during the boss fight ${s}`
    await file(server.url, server.apiKey, 1, () => same, 201)
    await file(server.url, server.apiKey, WARMUP, () => same, 200)
    await quiet(server.pid)

    let t0 = await cpuSeconds(server.pid)
    let r0 = await cpuSeconds(server.pid, server.pid)
    const threads0 = process.env.THREADS ? await threadSeconds(server.pid) : null
    await file(server.url, server.apiKey, FILINGS, distinct(`new${s}`), 201)
    await quiet(server.pid)
    const created = ((await cpuSeconds(server.pid)) - t0) / FILINGS
    const createdRequest = ((await cpuSeconds(server.pid, server.pid)) - r0) / FILINGS
    if (threads0) printThreads('new', threads0, await threadSeconds(server.pid))

    t0 = await cpuSeconds(server.pid)
    r0 = await cpuSeconds(server.pid, server.pid)
    const threads1 = process.env.THREADS ? await threadSeconds(server.pid) : null
    await file(server.url, server.apiKey, FILINGS, () => same, 200)
    await quiet(server.pid)
    const stacked = ((await cpuSeconds(server.pid)) - t0) / FILINGS
    const stackedRequest = ((await cpuSeconds(server.pid, server.pid)) - r0) / FILINGS
    if (threads1) printThreads('stacked', threads1, await threadSeconds(server.pid))
    return { created: created * 1e6, stacked: stacked * 1e6, createdRequest: createdRequest * 1e6, stackedRequest: stackedRequest * 1e6 }
  } finally {
    await server.stop()
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

console.log(`# server CPU per filing: ${FILINGS} filings per measured run after ${WARMUP}+${WARMUP} warm-up, ${CONCURRENCY} concurrent, ${ROUNDS} rounds, CLK_TCK ${TICKS}, Bun ${Bun.version}`)
const results = new Map<string, Record<keyof Figures, number[]>>(checkouts.map((c) => [c, { created: [], stacked: [], createdRequest: [], stackedRequest: [] }]))
for (let round = 1; round <= ROUNDS; round++) {
  for (const checkout of checkouts) {
    const r = await run(checkout)
    const kept = results.get(checkout)!
    for (const k of Object.keys(kept) as (keyof Figures)[]) kept[k].push(r[k])
    console.log(
      `round ${round}  ${checkout.padEnd(28)} new ${r.created.toFixed(0).padStart(5)} µs   stacked ${r.stacked.toFixed(0).padStart(5)} µs` +
        `   (request thread: new ${r.createdRequest.toFixed(0)}, stacked ${r.stackedRequest.toFixed(0)})`,
    )
  }
}
// The whole process is what a filing costs; the request thread alone is steadier: the job thread's
// per-minute work (the new-report mail window, WAL checkpoints) lands in whichever phase is running.
const first = results.get(checkouts[0]!)!
const cell = (checkout: string, xs: number[], base: number[]) =>
  `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})${checkout === checkouts[0] ? '' : ` ${((median(xs) / median(base) - 1) * 100).toFixed(0).replace(/^(?!-)/, '+')}%`}`
for (const [title, created, stacked] of [
  ['whole process', 'created', 'stacked'],
  ['request thread only', 'createdRequest', 'stackedRequest'],
] as const) {
  console.log(`\n# medians (min–max) of µs CPU per filing, ${title}`)
  for (const [checkout, r] of results) console.log(`${checkout.padEnd(28)} new ${cell(checkout, r[created], first[created])}   stacked ${cell(checkout, r[stacked], first[stacked])}`)
}
