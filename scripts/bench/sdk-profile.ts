// In-process cost per SDK request (no sockets): where the submit hot path spends its time.
// Usage: CONCURRENCY=32 ONLY=submit|events bun scripts/bench/sdk-profile.ts [requests]
// EXTRA_SQL="DROP TRIGGER reports_fts_ai;…" runs statements first, for what-if measurements.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config/config'
import { buildDeps } from '../../src/deps'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { projects } from '../../src/modules/projects/projects.table'
import { newId, randomBase62 } from '../../src/lib/ids'
import { createLogger } from '../../src/lib/logger'

const dir = mkdtempSync(join(tmpdir(), 'glitchbox-prof-'))
const config = loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_LOG_LEVEL: 'warn' }, {}, 'bench')
const deps = buildDeps(config, { logger: createLogger('warn') })
const app = createApp(deps)
for (const stmt of (process.env.EXTRA_SQL ?? '').split(';').filter(Boolean)) (await import('../../src/db/client')).rawSqlite(deps.db).exec(stmt)
const now = new Date()
const user = await createUserWithAccount(deps.db, { email: 'b@example.com', name: 'B', passwordHash: null }, 'studio', now)
const key = `sk_live_${randomBase62(40)}`
deps.db.insert(projects).values({ id: newId(), accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench', slug: 'bench', apiKey: key, createdAt: now, updatedAt: now }).run()

const words = 'crash freeze inventory boss texture audio menu lag save load level door enemy weapon shader physics camera player quest npc'.split(' ')
const desc = 'When I open the inventory during the boss fight the game stutters and sometimes freezes. '.repeat(22).slice(0, 1900)
let n = 0
const submitBody = () =>
  JSON.stringify({ title: `${words[n % 20]} ${words[(n * 7) % 20]} issue ${n++}`, description: desc, platform: 'Windows', game_version: '1.0.0', device_info: 'RTX 3060' })
const eventsBody = JSON.stringify({ events: Array.from({ length: 50 }, (_, i) => ({ event_name: `evt_${i % 5}`, event_data: { level: i, score: i * 10 }, session_token: 'session-token-123' })) })

/** Runs `count` requests, `CONCURRENCY` (env, default 1) in flight at a time. */
async function measure(label: string, count: number, make: (i: number) => Request) {
  const concurrency = Number(process.env.CONCURRENCY ?? 1)
  const one = async (i: number) => {
    const res = await app.handle(make(i))
    if (res.status >= 300) throw new Error(`${label}: ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
  }
  for (let i = 0; i < 200; i++) await one(i)
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  for (let i = 0; i < count; i += concurrency) await Promise.all(Array.from({ length: Math.min(concurrency, count - i) }, (_, k) => one(i + k)))
  const ms = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  // CPU time too: on a shared machine wall time also counts other processes.
  console.log(`${label}: ${((ms / count) * 1000).toFixed(1)} µs/request (${((cpu.user + cpu.system) / count).toFixed(1)} µs CPU), ${Math.round((count / ms) * 1000)} req/s`)
}

const post = (path: string, body: string, i: number) =>
  new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }, body })
const only = process.env.ONLY
if (!only || only === 'submit') await measure('submit 2KB', Number(process.argv[2] ?? 5000), (i) => post('/api/bugs/submit', submitBody(), i))
if (!only || only === 'events') await measure('events batch 50', Number(process.argv[2] ?? 2000), (i) => post('/api/events/track/batch', eventsBody, i))
if (!only) await measure('settings', 2000, (i) => new Request('http://localhost/api/bugs/settings', { headers: { 'x-api-key': key, 'x-forwarded-for': `10.0.${(i >> 8) & 255}.${i & 255}` } }))
if (!only) await measure('health', 2000, () => new Request('http://localhost/health'))
if (!only) await measure('maintenance', 2000, (i) => new Request('http://localhost/api/maintenance/active', { headers: { 'x-forwarded-for': `10.0.${(i >> 8) & 255}.${i & 255}` } }))
rmSync(dir, { recursive: true, force: true })
