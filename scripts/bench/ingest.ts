// Issue 22's ingest figures, all in one run on one machine: sustained filing of new reports
// (acknowledged AND listed: the server answers after the commit, and the run counts the reports the
// database holds afterwards), and stacking onto one report, each against a bare Bun.serve with one
// prepared insert of the same report, with 32 connections for BENCH_SECONDS (20 by default).
// With BENCH_PG (a PostgreSQL server, `postgres://user@host:port`, no database) the same run adds
// issue 31's figures: new reports on PostgreSQL with one node and with two nodes sharing the database
// (the 32 connections split between them), against the same bare-insert baseline.
// Usage: [BENCH_PG=postgres://postgres@127.0.0.1:55432] bun scripts/bench/ingest.ts      (wrk beside the server on the same machine)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SQL } from 'bun'
import { openSqlite } from '../../src/db/client'
import { DB_FILE } from '../../src/deps'
import { fmt, hardware, type LoadResult, startScriptServer, startServer, wrk } from './lib'
import { reportTemplate, seedDataDir, submitLua } from './sdk-load'

const seconds = Number(process.env.BENCH_SECONDS ?? 20)
const pgServer = process.env.BENCH_PG?.replace(/\/+$/, '')
const CONNECTIONS = 32
const STACKING_WARMUP_SECONDS = 5
const load = (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')
console.log(`# Glitchbox ingest benchmark\n${hardware()}; load average before: ${load}; wrk 1 thread, ${CONNECTIONS} connections, ${seconds}s per run\n`)
const template = reportTemplate()

const baseDir = mkdtempSync(join(tmpdir(), 'glitchbox-bench-base-'))
const bare = await startScriptServer('sdk-baseline-server.ts', { DATA_DIR: baseDir })
await wrk({ url: bare.url, seconds: 2, lua: submitLua(template, 'none', 'warm') })
const baseline = await wrk({ url: bare.url, seconds, lua: submitLua(template, 'none', 'base') })
await bare.stop()
rmSync(baseDir, { recursive: true, force: true })
console.log(fmt('bare Bun.serve + 1 prepared insert', baseline))

type Servers = Awaited<ReturnType<typeof startServer>>[]

/** One wrk per node, the connections split between them, at once; requests and rates add up, latencies are the worst node's. */
async function wrkAcross(servers: Servers, apiKey: string, salt: string, runSeconds: number): Promise<LoadResult> {
  const runs = await Promise.all(
    servers.map((s, i) => wrk({ url: `${s.url}/api/bugs/submit`, seconds: runSeconds, connections: CONNECTIONS / servers.length, lua: submitLua(template, apiKey, `${salt}-${i}`) })),
  )
  const sum = (k: 'rps' | 'requests' | 'errors' | 'non2xx') => runs.reduce((a, r) => a + r[k], 0)
  const worst = (k: 'p50' | 'p95' | 'p99') => Math.max(...runs.map((r) => r[k]))
  return { rps: sum('rps'), requests: sum('requests'), errors: sum('errors'), non2xx: sum('non2xx'), p50: worst('p50'), p95: worst('p95'), p99: worst('p99') }
}

/**
 * Sustained filing of new reports on `nodes` servers of one database (SQLite: the data directory's;
 * PostgreSQL: a fresh database on BENCH_PG, dropped afterwards). `then` runs more on the servers before they stop.
 */
async function ingestRun(o: { engine: 'sqlite' | 'postgresql'; nodes: number; then?: (servers: Servers, apiKey: string) => Promise<void> }) {
  const dataDirs = Array.from({ length: o.nodes }, () => mkdtempSync(join(tmpdir(), 'glitchbox-bench-ingest-')))
  const database = `glitchbox_bench_ingest_${process.pid}_${o.nodes}`
  let env: Record<string, string> = { GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_LOG_LEVEL: 'warn' }
  let count: () => Promise<number>
  let drop = async () => {}
  if (o.engine === 'postgresql') {
    const admin = new SQL(`${pgServer}/postgres`, { max: 1 })
    await admin.unsafe(`CREATE DATABASE "${database}"`)
    env = { ...env, GLITCHBOX_DATABASE_URL: `${pgServer}/${database}`, GLITCHBOX_SECRET_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64') }
    const pg = new SQL(`${pgServer}/${database}`, { max: 1 })
    count = async () => Number((await pg`SELECT count(*) AS n FROM reports`)[0].n)
    drop = async () => {
      await pg.close()
      await admin.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
      await admin.close()
    }
  } else {
    count = async () => {
      const db = openSqlite(join(dataDirs[0]!, DB_FILE), { readonly: true })
      try {
        return (db.query('SELECT count(*) AS n FROM reports').get() as { n: number }).n
      } finally {
        db.close()
      }
    }
  }
  const servers: Servers = []
  try {
    const apiKey = await seedDataDir(dataDirs[0]!, env)
    // One at a time: the first migrates, the others find the database ready.
    for (const dataDir of dataDirs) servers.push(await startServer({ dataDir, env }))
    await wrkAcross(servers, apiKey, 'warm', 2)
    const before = await count()
    const created = await wrkAcross(servers, apiKey, 'run', seconds)
    // Every acknowledged report is filed before its answer: the database holds them all at once.
    const filed = (await count()) - before
    const filedRate = filed / seconds
    const name = `${o.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${o.nodes} node${o.nodes > 1 ? 's' : ''}: POST /api/bugs/submit (2 KB, new reports)`
    console.log(fmt(name, created, baseline))
    console.log(`  filed and listed: ${filed} reports in ${seconds} s = ${filedRate.toFixed(0)}/s = ${(filedRate / baseline.rps).toFixed(2)}x the bare insert (target >= 0.25x); acknowledged ${created.requests - created.non2xx}`)
    await o.then?.(servers, apiKey)
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
    await drop()
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  }
}

await ingestRun({
  engine: 'sqlite',
  nodes: 1,
  then: async ([gb], apiKey) => {
    await Bun.sleep(3000)
    const stacking = { url: `${gb!.url}/api/bugs/submit`, method: 'POST', spreadIps: true, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: template.replace('%TITLE%', 'Stacked crash') }
    // Warmed up first, as the new reports are: the stacking path has not run before this, and in its
    // first seconds the server compiles it and its job thread works off the new reports' rollups
    // (round 13: a first 10 s window ran 4-22% slower than the next one).
    await wrk({ ...stacking, seconds: STACKING_WARMUP_SECONDS })
    const grouped = await wrk({ ...stacking, seconds })
    console.log(`${fmt('POST /api/bugs/submit (2 KB, same report)', grouped, baseline)}  (target >= 1.0x, p99 < 100 ms)`)
  },
})
if (pgServer) {
  for (const nodes of [1, 2]) await ingestRun({ engine: 'postgresql', nodes })
}
