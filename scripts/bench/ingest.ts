// Issue 22's ingest figures, all in one run on one machine: sustained filing of new reports
// (acknowledged AND listed: the server answers after the commit, and the run counts the reports the
// database holds afterwards), and stacking onto one report, each against a bare Bun.serve with one
// prepared insert of the same report, with 32 connections for BENCH_SECONDS (20 by default).
// Usage: bun scripts/bench/ingest.ts      (wrk beside the server on the same machine)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqlite } from '../../src/db/client'
import { DB_FILE } from '../../src/deps'
import { fmt, hardware, startScriptServer, startServer, wrk } from './lib'
import { reportTemplate, seedDataDir, submitLua } from './sdk-load'

const seconds = Number(process.env.BENCH_SECONDS ?? 20)
const load = (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')
console.log(`# Glitchbox ingest benchmark\n${hardware()}; load average before: ${load}; wrk 1 thread, 32 connections, ${seconds}s per run\n`)
const template = reportTemplate()

const baseDir = mkdtempSync(join(tmpdir(), 'glitchbox-bench-base-'))
const bare = await startScriptServer('sdk-baseline-server.ts', { DATA_DIR: baseDir })
await wrk({ url: bare.url, seconds: 2, lua: submitLua(template, 'none', 'warm') })
const baseline = await wrk({ url: bare.url, seconds, lua: submitLua(template, 'none', 'base') })
await bare.stop()
rmSync(baseDir, { recursive: true, force: true })
console.log(fmt('bare Bun.serve + 1 prepared insert', baseline))

const dataDir = mkdtempSync(join(tmpdir(), 'glitchbox-bench-ingest-'))
const apiKey = await seedDataDir(dataDir)
const gb = await startServer({ dataDir, env: { GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_LOG_LEVEL: 'warn' } })
const count = () => {
  const db = openSqlite(join(dataDir, DB_FILE), { readonly: true })
  try {
    return (db.query('SELECT count(*) AS n FROM reports').get() as { n: number }).n
  } finally {
    db.close()
  }
}
await wrk({ url: `${gb.url}/api/bugs/submit`, seconds: 2, lua: submitLua(template, apiKey, 'warm') })
const before = count()
const created = await wrk({ url: `${gb.url}/api/bugs/submit`, seconds, lua: submitLua(template, apiKey, 'run') })
// Every acknowledged report is filed before its answer: the database holds them all at once.
const filed = count() - before
const filedRate = filed / seconds
console.log(fmt('POST /api/bugs/submit (2 KB, new reports)', created, baseline))
console.log(`  filed and listed: ${filed} reports in ${seconds} s = ${filedRate.toFixed(0)}/s = ${(filedRate / baseline.rps).toFixed(2)}x the bare insert (target >= 0.25x); acknowledged ${created.requests - created.non2xx}`)
await Bun.sleep(3000)

const grouped = await wrk({ url: `${gb.url}/api/bugs/submit`, seconds, method: 'POST', spreadIps: true, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: template.replace('%TITLE%', 'Stacked crash') })
console.log(`${fmt('POST /api/bugs/submit (2 KB, same report)', grouped, baseline)}  (target >= 1.0x, p99 < 100 ms)`)
await gb.stop()
rmSync(dataDir, { recursive: true, force: true })
