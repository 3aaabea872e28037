// Where a filing's time goes on PostgreSQL: the statements one SDK submit (POST /api/bugs/submit, in
// process, the bench's 2 KB report) of a new report and of a stacked occurrence sends, counted at
// Drizzle's driver seam, with how often each ran and how long it waited (statements sent together
// overlap: one round trip), and the time of a submit, one by one and 32 at once. Usage:
//   BENCH_PG=postgres://postgres@127.0.0.1:55432 bun scripts/bench/ingest-round-trips.ts
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SQL } from 'bun'
import { BunSQLPreparedQuery, BunSQLSession } from 'drizzle-orm/bun-sql/session'
import { loadConfig } from '../../src/config/config'
import { closeDb } from '../../src/db/client'
import { databaseReady } from '../../src/db/pg/client'
import { buildDeps } from '../../src/deps'
import { newId, randomBase62 } from '../../src/lib/ids'
import { createLogger } from '../../src/lib/logger'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { projects } from '../../src/modules/projects/projects.table'
import { createApp } from '../../src/app'
import { hardware } from './lib'
import { reportTemplate } from './sdk-load'

const server = process.env.BENCH_PG?.replace(/\/+$/, '')
if (!server) throw new Error('set BENCH_PG to a PostgreSQL server (postgres://user@host:port)')

// Every statement Drizzle sends (prepared queries, raw ones, and BEGIN/COMMIT through the driver's `begin`).
const seen = new Map<string, number>()
const spent = new Map<string, number>()
const count = (text: string) => seen.set(text, (seen.get(text) ?? 0) + 1)
const inFlight = new WeakMap<object, number>()
let alongside = 0
for (const m of ['execute', 'all'] as const) {
  const original = BunSQLPreparedQuery.prototype[m]
  BunSQLPreparedQuery.prototype[m] = async function (this: { queryString: string; client: object }, ...args: unknown[]) {
    count(this.queryString)
    // Sent while another statement of the same connection is still out: it shares that round trip.
    const out = inFlight.get(this.client) ?? 0
    if (out > 0) alongside++
    inFlight.set(this.client, out + 1)
    const t0 = performance.now()
    try {
      return await (original as (...a: unknown[]) => Promise<unknown>).apply(this, args)
    } finally {
      inFlight.set(this.client, inFlight.get(this.client)! - 1)
      spent.set(this.queryString, (spent.get(this.queryString) ?? 0) + performance.now() - t0)
    }
  } as never
}
for (const m of ['query', 'queryObjects'] as const) {
  const original = BunSQLSession.prototype[m]
  BunSQLSession.prototype[m] = function (this: unknown, query: string, params: unknown[]) {
    count(query)
    return original.call(this, query, params)
  } as never
}
const originalTransaction = BunSQLSession.prototype.transaction
BunSQLSession.prototype.transaction = function (this: unknown, ...args: unknown[]) {
  count('BEGIN')
  count('COMMIT')
  return (originalTransaction as (...a: unknown[]) => unknown).apply(this, args)
} as never

/** CPU time (ms) used so far by the processes named `postgres` on this machine (the server is local here); 0 where /proc cannot tell. */
async function postgresCpuMs(): Promise<number> {
  const { readdirSync, readFileSync } = await import('node:fs')
  let ticks = 0
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      if (!stat.includes('(postgres)')) continue
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // The process ended while it was read.
    }
  }
  return ticks * 10
}

const database = `glitchbox_round_trips_${process.pid}`
const admin = new SQL(`${server}/postgres`, { max: 1 })
await admin.unsafe(`CREATE DATABASE "${database}"`)
const dir = mkdtempSync(join(tmpdir(), 'glitchbox-round-trips-'))
const config = loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_LOG_LEVEL: 'warn', GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_DATABASE_URL: `${server}/${database}`, GLITCHBOX_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') }, {}, 'bench')
const deps = buildDeps(config, { logger: createLogger('warn') })
try {
  await databaseReady(deps.db)
  const now = new Date()
  const user = await createUserWithAccount(deps.db, { email: 'b@example.com', name: 'B', passwordHash: null }, 'studio', now)
  const apiKey = `sk_live_${randomBase62(40)}`
  await deps.db.write((q) => q.insert(projects).values({ id: newId(), accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench', slug: 'bench', apiKey, createdAt: now, updatedAt: now }))
  const app = createApp(deps)
  const template = reportTemplate()
  let n = 0
  let client = 0
  const submit = async (title = `report ${++n} of the inventory screen`) => {
    // A client address each, as wrk's script sends: the per-address rate limit stays out of the way.
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey, 'x-forwarded-for': `10.1.${(++client >> 8) & 255}.${client & 255}` }
    const res = await app.handle(new Request('http://localhost/api/bugs/submit', { method: 'POST', headers, body: template.replace('%TITLE%', title) }))
    if (res.status >= 300) throw new Error(`submit answered ${res.status}: ${await res.text()}`)
  }
  const profile = async (label: string, fn: () => Promise<unknown>, times: number) => {
    for (let i = 0; i < 20; i++) await fn()
    seen.clear()
    spent.clear()
    alongside = 0
    const t0 = performance.now()
    for (let i = 0; i < times; i++) await fn()
    const serial = (performance.now() - t0) / times
    const statements = [...seen.values()].reduce((a, b) => a + b, 0) / times
    console.log(`\n${label}: ${statements.toFixed(1)} statements in ${(statements - alongside / times).toFixed(1)} round trips each, ${serial.toFixed(2)} ms each one by one`)
    for (const [text, k] of [...seen].sort((a, b) => b[1] - a[1])) console.log(`  ${(k / times).toFixed(2).padStart(5)} ${((spent.get(text) ?? 0) / times).toFixed(2).padStart(6)} ms  ${text.replace(/\s+/g, ' ').slice(0, 150)}`)
    const t1 = performance.now()
    const [app0, pg0] = [process.cpuUsage(), await postgresCpuMs()]
    for (let i = 0; i < times / 32; i++) await Promise.all(Array.from({ length: 32 }, fn))
    const done = Math.floor(times / 32) * 32
    const app = process.cpuUsage(app0)
    const pg = (await postgresCpuMs()) - pg0
    console.log(`  32 at once: ${((performance.now() - t1) / done).toFixed(2)} ms each; CPU per filing: this process ${((app.user + app.system) / 1000 / done).toFixed(2)} ms, PostgreSQL's processes ${(pg / done).toFixed(2)} ms`)
  }
  console.log(`${hardware()}; load average ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}`)
  await profile('a new report', () => submit(), 320)
  await profile('an occurrence stacked onto one report', () => submit('The same crash every time'), 320)
} finally {
  await closeDb(deps.db)
  await admin.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
  await admin.close()
  rmSync(dir, { recursive: true, force: true })
}
