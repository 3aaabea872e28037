/**
 * Web budgets (issue 15), measured against the real server over HTTP:
 * - JavaScript of the public pages (the vote script) and of /widget.js, gzipped: budget ≤ 30 KB for voting;
 * - the dashboard's JavaScript on first load (every script and module preload `/` pulls in), gzipped:
 *   budget ≤ 200 KB (measured when web/app exists);
 * - the public tracker's HTML with N reports in the project (default 100,000): budget < 20 ms p95.
 *
 *   bun scripts/bench/web-budgets.ts [--reports 100000] [--iterations 400] [--concurrency 4] [--keep]
 *
 * The tracker is timed one request at a time (latency a visitor sees), then with a few concurrent
 * clients, on the first page, a deep page, a status filter and a search.
 */
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/config'
import { rawSqlite } from '../../src/db/client'
import { buildDeps } from '../../src/deps'
import { newId, randomBase62 } from '../../src/lib/ids'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { projects } from '../../src/modules/projects/projects.table'
import { projectSettings } from '../../src/modules/settings/settings.table'
import { SETTINGS_DEFAULTS } from '../../src/modules/settings/settings.service'
import { hardware, startServer } from './lib'
import { RARE_TERM, seedReports } from './reports-seed'

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(args[i + 1])
}
const N = option('reports', 100_000)
const ITERATIONS = option('iterations', 400)
const CONCURRENCY = option('concurrency', 4)
const KB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const gz = (body: Uint8Array<ArrayBuffer> | string) => Bun.gzipSync(typeof body === 'string' ? new TextEncoder().encode(body) : body).length

console.log(`web budgets · ${hardware()} · load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at start`)

// --- Data: one project with N reports and its tracker on, in a data dir migrated by the real code.
const dir = mkdtempSync(join(tmpdir(), 'glitchbox-web-budgets-'))
{
  const config = loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_LOG_LEVEL: 'error' }, {}, 'bench')
  const deps = buildDeps(config)
  const now = new Date('2026-01-01T00:00:00Z')
  const user = await createUserWithAccount(deps.db, { email: 'bench@example.com', name: 'Bench', passwordHash: null }, 'studio', now)
  const projectId = newId()
  deps.db
    .insert(projects)
    .values({ id: projectId, accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench Game', slug: 'bench-game', apiKey: `sk_live_${randomBase62(40)}`, createdAt: now, updatedAt: now })
    .run()
  // `publish: all` with auto-filed reports: every report public, as a project from before the publish
  // modes (issue 25) keeps it; the other modes are measured after it (publishModes below).
  const tracker = {
    ...SETTINGS_DEFAULTS.tracker,
    enabled: true,
    allow_search: true,
    allow_upvotes: true,
    show_categories: true,
    show_status_filter: true,
    page_title: 'Bench Game known issues',
    publish: 'all' as const,
    include_auto_filed: true,
  }
  deps.db.insert(projectSettings).values({ projectId, kind: 'tracker', value: tracker, updatedAt: now }).run()
  const roadmap = { ...SETTINGS_DEFAULTS.roadmap, enabled: true, show_upvotes: true }
  deps.db.insert(projectSettings).values({ projectId, kind: 'roadmap', value: roadmap, updatedAt: now }).run()
  console.log(`seeding ${N.toLocaleString('en')} reports …`)
  const seed = seedReports(rawSqlite(deps.db), { projectId, userId: user.id, n: N, start: now.getTime() - N * 1000 })
  rawSqlite(deps.db).exec('ANALYZE')
  // The team touched one report in five, published one in a hundred and put one in fifty on the roadmap.
  rawSqlite(deps.db).exec(`UPDATE reports SET triaged_at = created_at WHERE seq % 5 = 0`)
  rawSqlite(deps.db).exec(`UPDATE reports SET published = 1 WHERE seq % 100 = 3`)
  rawSqlite(deps.db).exec(`UPDATE reports SET on_roadmap = 1 WHERE seq % 50 = 7`)
  console.log(`seeded in ${seed.seconds.toFixed(1)} s`)
  rawSqlite(deps.db).close()
}

const server = await startServer({ dataDir: dir, env: { GLITCHBOX_RATE_LIMIT_GLOBAL: '0', GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
try {
  // --- JavaScript sizes, as served.
  const trackerHtml = await (await fetch(`${server.url}/tracker/bench-game`)).text()
  const voteSrc = /<script src="([^"]+)"/.exec(trackerHtml)?.[1]
  if (!voteSrc) throw new Error('the tracker page loads no vote script')
  const vote = new Uint8Array(await (await fetch(`${server.url}${voteSrc}`)).arrayBuffer())
  const widget = new Uint8Array(await (await fetch(`${server.url}/widget.js`)).arrayBuffer())
  console.log('\nJavaScript (gzipped, as served)')
  console.log(`  public pages (vote script ${voteSrc}): ${KB(gz(vote))} gzipped (${KB(vote.length)} raw) · budget 30 KB`)
  console.log(`  /widget.js (on game pages):            ${KB(gz(widget))} gzipped (${KB(widget.length)} raw)`)
  console.log(`  tracker page HTML (25 reports):          ${KB(gz(trackerHtml))} gzipped (${KB(trackerHtml.length)} raw)`)

  const shell = await fetch(`${server.url}/`)
  const shellHtml = await shell.text()
  const scripts = [...shellHtml.matchAll(/<script[^>]*\bsrc="([^"]+)"|<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1] ?? m[2]!)
  if (shell.ok && scripts.length) {
    let total = 0
    let raw = 0
    for (const src of new Set(scripts)) {
      const body = new Uint8Array(await (await fetch(new URL(src, server.url))).arrayBuffer())
      total += gz(body)
      raw += body.length
    }
    console.log(`  dashboard first load (${scripts.length} script${scripts.length === 1 ? '' : 's'} from /): ${KB(total)} gzipped (${KB(raw)} raw) · budget 200 KB`)
  } else console.log(`  dashboard: / answered ${shell.status} with no script; not measured`)

  // --- Tracker HTML latency.
  const scenarios: [string, string][] = [
    ['first page', '/tracker/bench-game'],
    ['page 200 (offset 4,975)', '/tracker/bench-game?page=200'],
    ['status=resolved, page 3', '/tracker/bench-game?status=resolved&page=3'],
    ['category=audio&status=open', '/tracker/bench-game?category=audio&status=open'],
    [`search "${RARE_TERM}"`, `/tracker/bench-game?q=${RARE_TERM}`],
    ['search "texture flicker"', '/tracker/bench-game?q=texture+flicker'],
  ]
  const pct = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!
  const once = async (path: string) => {
    const t0 = performance.now()
    const res = await fetch(`${server.url}${path}`, { headers: { 'x-forwarded-for': `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` } })
    await res.text()
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`)
    return performance.now() - t0
  }
  // Server CPU per request (user + system, from /proc): on a busy machine latency measures the
  // neighbours as much as the server; this does not.
  const cpuMs = async () => {
    const f = (await Bun.file(`/proc/${server.proc.pid}/stat`).text()).split(') ')[1]!.split(' ')
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100
  }
  // The publish modes change which reports the tracker reads (issue 25); the settings are read per
  // request, so a second connection switches them between scenarios while the server runs.
  const settingsDb = new Database(join(dir, 'glitchbox.db'))
  const publishModes: [string, string, Record<string, unknown>][] = [
    ['triaged (1 in 5), first page', '/tracker/bench-game', { publish: 'triaged', include_auto_filed: false }],
    ['triaged (1 in 5), page 40', '/tracker/bench-game?page=40', { publish: 'triaged', include_auto_filed: false }],
    ['manual (1 in 100), first page', '/tracker/bench-game', { publish: 'manual', include_auto_filed: false }],
    ['roadmap (1 in 50), 3 columns', '/roadmap/bench-game', { publish: 'all', include_auto_filed: true }],
  ]
  const measured: [string, string, Record<string, unknown> | null][] = [...scenarios.map(([n, p]) => [n, p, null] as [string, string, null]), ...publishModes]
  console.log(`\nTracker HTML over HTTP, ${N.toLocaleString('en')} reports in the project (${ITERATIONS} requests each; budget p95 < 20 ms)`)
  for (const [name, path, mode] of measured) {
    if (mode) settingsDb.query(`UPDATE project_settings SET value = json_patch(value, ?) WHERE kind = 'tracker'`).run(JSON.stringify(mode))
    for (let i = 0; i < 20; i++) await once(path)
    const serial: number[] = []
    const cpu0 = await cpuMs()
    for (let i = 0; i < ITERATIONS; i++) serial.push(await once(path))
    const cpuPerReq = ((await cpuMs()) - cpu0) / ITERATIONS
    const concurrent: number[] = []
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = 0; i < ITERATIONS / CONCURRENCY; i++) concurrent.push(await once(path))
      }),
    )
    const rps = concurrent.length / ((performance.now() - t0) / 1000)
    console.log(
      `  ${name.padEnd(30)} one at a time: p50 ${pct(serial, 50).toFixed(2)} ms, p95 ${pct(serial, 95).toFixed(2)} ms, server CPU ${cpuPerReq.toFixed(2)} ms/req · ${CONCURRENCY} clients: p95 ${pct(concurrent, 95).toFixed(2)} ms, ${rps.toFixed(0)} pages/s`,
    )
  }
  settingsDb.close()
} finally {
  await server.stop()
  if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true })
  else console.log(`data kept in ${dir}`)
}
