// Webhook figures: deliveries per second to a local no-op receiver (server process, real job runner),
// and SDK submit throughput with and without 3 webhooks attached. Usage: bun scripts/bench/webhooks.ts
import { loadavg } from 'node:os'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config/config'
import { rawSqlite } from '../../src/db/client'
import { buildDeps } from '../../src/deps'
import { newId, randomBase62 } from '../../src/lib/ids'
import { silentLogger } from '../../src/lib/logger'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { projects } from '../../src/modules/projects/projects.table'
import { createReport } from '../../src/modules/reports/reports.service'
import { webhooks } from '../../src/modules/webhooks/webhooks.table'
import { tempDataDir } from '../../test/helpers/server-process'
import { fmt, hardware, startScriptServer, startServer, wrk } from './lib'

const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const backlog = Number(process.env.BENCH_DELIVERIES ?? 1000)

/** A data directory with a studio account, one project and `hooks` webhooks to `url`; `reports` reports already filed. */
async function seed(o: { hooks: number; url: string; reports?: number }) {
  const dataDir = tempDataDir()
  const deps = buildDeps(loadConfig({ GLITCHBOX_DATA_DIR: dataDir, GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' }), { logger: silentLogger })
  createApp(deps) // registers the event subscribers, so filed reports enqueue their webhook fan-outs
  const now = new Date()
  const user = await createUserWithAccount(deps.db, { email: 'bench@example.com', name: 'Bench', passwordHash: null }, 'studio', now)
  const project = { id: newId(), accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench', slug: 'bench', apiKey: `sk_live_${randomBase62(40)}`, createdAt: now, updatedAt: now }
  deps.db.insert(projects).values(project).run()
  for (let i = 0; i < o.hooks; i++) {
    deps.db.insert(webhooks).values({ id: newId(), projectId: project.id, name: `Hook ${i}`, url: o.url, secret: 'bench-secret', eventTypes: 'bug_created,bug_updated,comment_added', createdBy: user.id, createdAt: now }).run()
  }
  for (let i = 0; i < (o.reports ?? 0); i++) {
    await deps.db.write((tx) => createReport(deps, tx, project, { title: `Seeded crash ${i}`, description: 'x'.repeat(500) }))
  }
  rawSqlite(deps.db).close()
  return { dataDir, apiKey: project.apiKey }
}

const env = { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true', GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_LOG_LEVEL: 'warn' }
const receiver = await startScriptServer('webhooks-receiver.ts')
const received = async () => ((await (await fetch(`${receiver.url}/count`)).json()) as { count: number }).count
console.log(`# Glitchbox webhook benchmark\n${hardware()}; load average at start ${loadavg().map((l) => l.toFixed(1)).join(' ')} (the machine is shared)\n`)

// 1. Deliveries per second: a backlog of signed deliveries, drained by the server's job runner.
{
  const { dataDir } = await seed({ hooks: 1, url: `${receiver.url}/in`, reports: backlog })
  const start0 = await received()
  const server = await startServer({ dataDir, env })
  const t0 = performance.now()
  while ((await received()) - start0 < backlog) await Bun.sleep(20)
  const s = (performance.now() - t0) / 1000
  console.log(`deliveries: ${backlog} in ${s.toFixed(1)} s = ${(backlog / s).toFixed(0)} deliveries/s (server process, runner concurrency 8)`)
  await server.stop()
}

// 2. SDK submit throughput, every request a new report (unique titles), with 0 and 3 webhooks.
const desc = 'When I open the inventory during the boss fight the game stutters and sometimes freezes. '.repeat(22).slice(0, 1900)
const submitLua = (apiKey: string, tag: string) => `
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-API-Key"] = "${apiKey}"
local counter = 0
request = function()
  counter = counter + 1
  wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(counter / 65536) % 256, math.floor(counter / 256) % 256, counter % 256)
  local body = string.format('{"title":"${tag} crash %d","description":"${desc}","platform":"Windows","game_version":"1.0.0"}', counter)
  return wrk.format(nil, nil, nil, body)
end
`
async function submitRun(hooks: number) {
  const { dataDir, apiKey } = await seed({ hooks, url: `${receiver.url}/in` })
  const server = await startServer({ dataDir, env })
  await wrk({ url: `${server.url}/api/bugs/submit`, seconds: 2, lua: submitLua(apiKey, 'warm') })
  const before = await received()
  const r = await wrk({ url: `${server.url}/api/bugs/submit`, seconds, lua: submitLua(apiKey, 'run') })
  await Bun.sleep(3000)
  const delivered = (await received()) - before
  await server.stop()
  return { r, delivered }
}
// 3. The submit write path alone (in-process, no job runner): what the webhook fan-out job per report costs.
async function inProcess(hooks: number, count: number) {
  const { dataDir, apiKey } = await seed({ hooks, url: `${receiver.url}/in` })
  const deps = buildDeps(loadConfig({ GLITCHBOX_DATA_DIR: dataDir, GLITCHBOX_TRUST_PROXY: 'true' }), { logger: silentLogger })
  const app = createApp(deps)
  let n = 0
  const submit = () =>
    app.handle(
      new Request('http://localhost/api/bugs/submit', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
        body: JSON.stringify({ title: `in-process crash ${n++}`, description: desc, platform: 'Windows' }),
      }),
    )
  for (let i = 0; i < 100; i++) await (await submit()).arrayBuffer()
  const t0 = performance.now()
  for (let i = 0; i < count; i++) await (await submit()).arrayBuffer()
  const perSec = count / ((performance.now() - t0) / 1000)
  rawSqlite(deps.db).close()
  return perSec
}
const rounds = { 0: [] as number[], 3: [] as number[] }
// Order alternates (0,3,3,0,…) so warm-up and GC effects fall on both sides alike.
for (let i = 0; i < 6; i++) for (const h of i % 2 ? ([3, 0] as const) : ([0, 3] as const)) rounds[h].push(await inProcess(h, 1000))
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
console.log(`submit write path in-process (median of 6 alternating runs of 1000): ${median(rounds[0]).toFixed(0)}/s without webhooks, ${median(rounds[3]).toFixed(0)}/s with 3 = ${(median(rounds[3]) / median(rounds[0])).toFixed(2)}x`)

// Over HTTP, alternating too (0,3,3,0,0,3): one run each swung ±10% on this shared 2-core machine.
const http = { 0: [] as Awaited<ReturnType<typeof submitRun>>[], 3: [] as Awaited<ReturnType<typeof submitRun>>[] }
for (let i = 0; i < 3; i++) for (const h of i % 2 ? ([3, 0] as const) : ([0, 3] as const)) http[h].push(await submitRun(h))
const mid = (runs: Awaited<ReturnType<typeof submitRun>>[]) => runs.sort((a, b) => a.r.rps - b.r.rps)[Math.floor(runs.length / 2)]!
const base = mid(http[0])
const hooked = mid(http[3])
console.log(`HTTP runs, req/s: without webhooks ${http[0].map((x) => x.r.rps.toFixed(0)).join(', ')}; with 3 ${http[3].map((x) => x.r.rps.toFixed(0)).join(', ')}`)
console.log(fmt('submit, no webhooks (median run)', base.r))
console.log(fmt('submit, 3 webhooks (median run)', hooked.r, base.r))
console.log(`  ${hooked.delivered} deliveries made during that 3-webhook run (+3 s); ${(hooked.r.rps / base.r.rps).toFixed(2)}x the submit rate without webhooks (target ≥ 0.85x)`)
await receiver.stop()
