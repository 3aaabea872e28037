// SDK ingestion figures (issue 5), all in one run on one machine: submit of a 2 KB report vs a bare
// Bun.serve + one prepared SQLite insert of the same report; event batches of 50 (also vs a bare
// batch insert); 5 MB screenshot submits with the server's peak RSS and /health latency alongside.
// Usage: bun scripts/bench/sdk-submit.ts   (BENCH_SECONDS=10 by default; ONLY=uploads runs the big-upload part
// alone; ATTACH_MB=9 adds a 9 MB attachment to each of those bodies; BINARY=dist/glitchbox runs that part on the
// compiled binary, BUN_ARGS='--smol' passes flags to bun from source)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqlite } from '../../src/db/client'
import { DB_FILE } from '../../src/deps'
import { fmt, hardware, type LoadResult, peakRssMb, startScriptServer, startServer, wrk } from './lib'
import { reportTemplate, seedDataDir, submitLua } from './sdk-load'

// ---- helpers of this benchmark ----

/** A PNG-signed image of `bytes` bytes as a data URL. */
function screenshotDataUrl(bytes: number): string {
  const png = new Uint8Array(bytes)
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  for (let i = 8; i < bytes; i++) png[i] = (i * 2654435761) >>> 24
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`
}

/**
 * Waits (at most two minutes) until the server has filed the reports queued in its SDK inbox and
 * worked off the due jobs, so one run's backlog does not load the next; returns the seconds each took.
 */
async function drainJobs(dataDir: string): Promise<{ inbox: number; jobs: number }> {
  const db = openSqlite(join(dataDir, DB_FILE), { readonly: true })
  const started = performance.now()
  const queued = db.prepare('SELECT count(*) AS n FROM report_inbox')
  // Due jobs only: the per-minute new-report mail job is not due before its minute ends.
  const due = db.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'running' OR (status = 'pending' AND run_at <= ?1)")
  const seconds = () => Math.round((performance.now() - started) / 1000)
  let inbox = -1
  for (;;) {
    const inboxLeft = (queued.get() as { n: number }).n
    if (inboxLeft === 0 && inbox < 0) inbox = seconds()
    if ((inboxLeft === 0 && (due.get(Date.now()) as { n: number }).n === 0) || performance.now() - started > 120_000) break
    await Bun.sleep(250)
  }
  db.close()
  return { inbox, jobs: seconds() }
}

const ratio = (r: LoadResult, base: LoadResult) => (r.rps / base.rps).toFixed(2)

// ---- the run ----

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
console.log(`# Glitchbox SDK ingestion benchmark\n${hardware()}; wrk 1 thread, 32 connections, ${seconds}s per run\n`)
const template = reportTemplate()
console.log(`report body: ${Buffer.byteLength(template) + 40} bytes; titles differ per request (no grouping), client IP differs per request\n`)

const only = process.env.ONLY
const dataDir = mkdtempSync(join(tmpdir(), 'glitchbox-bench-sdk-'))
const apiKey = await seedDataDir(dataDir)
const serverEnv = { GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_LOG_LEVEL: 'warn' }
let submit: LoadResult | undefined
let batch: LoadResult | undefined
let baseline: LoadResult | undefined
if (only !== 'uploads') {
  const baseDir = mkdtempSync(join(tmpdir(), 'glitchbox-bench-base-'))
  const bare = await startScriptServer('sdk-baseline-server.ts', { DATA_DIR: baseDir })
  await wrk({ url: bare.url, seconds: 2, lua: submitLua(template, 'none', 'warm') })
  baseline = await wrk({ url: bare.url, seconds, lua: submitLua(template, 'none', 'base') })
  const events = JSON.stringify({
    events: Array.from({ length: 50 }, (_, i) => ({ event_name: `level_${i % 8}`, event_data: { level: i % 8, score: i * 10, weapon: 'bow' }, session_token: 'session-0001-bench', platform: 'Windows', game_version: '1.4.2' })),
  })
  const eventsBaseline = await wrk({ url: `${bare.url}/events`, seconds, method: 'POST', headers: { 'content-type': 'application/json' }, body: events })
  await bare.stop()
  rmSync(baseDir, { recursive: true, force: true })
  console.log(fmt('bare Bun.serve + 1 prepared insert', baseline))
  console.log(`${fmt('bare Bun.serve + 50 prepared inserts in 1 tx', eventsBaseline)}  = ${Math.round(eventsBaseline.rps * 50)} events/s`)

  const gb = await startServer({ dataDir, env: serverEnv })
  await wrk({ url: `${gb.url}/api/bugs/submit`, seconds: 2, lua: submitLua(template, apiKey, 'warm') })
  submit = await wrk({ url: `${gb.url}/api/bugs/submit`, seconds, lua: submitLua(template, apiKey, 'run1') })
  console.log(fmt('POST /api/bugs/submit (2 KB, new reports)', submit, baseline))
  const drained = await drainJobs(dataDir)
  console.log(`  (the server then filed the reports queued in its inbox within ${drained.inbox} s, and worked off the due jobs within ${drained.jobs} s)`)

  // The same load with the owner's "new bug" mails off: shows what the notification fan-out jobs
  // (run by the same process) cost the ingest path.
  const db = openSqlite(join(dataDir, DB_FILE))
  db.prepare('INSERT INTO notification_preferences (user_id, email_bug_created, updated_at) SELECT id, 0, ? FROM users').run(Date.now())
  db.close()
  const quiet = await wrk({ url: `${gb.url}/api/bugs/submit`, seconds, lua: submitLua(template, apiKey, 'run2') })
  console.log(fmt('  same, "new bug" mails off', quiet, baseline))
  await drainJobs(dataDir)

  const grouped = await wrk({ url: `${gb.url}/api/bugs/submit`, seconds, method: 'POST', spreadIps: true, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: template.replace('%TITLE%', 'Stacked crash') })
  console.log(fmt('POST /api/bugs/submit (2 KB, same title)', grouped, baseline))

  batch = await wrk({ url: `${gb.url}/api/events/track/batch`, seconds, method: 'POST', spreadIps: true, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: events })
  console.log(`${fmt('POST /api/events/track/batch (50 events)', batch, eventsBaseline)}  = ${Math.round(batch.rps * 50)} events/s`)

  await gb.stop()

}

// 5 MB screenshots on a fresh server process (so its peak RSS is this run's): few connections, each
// body is ~6.7 MB of JSON; /health is probed at the same time.
// BINARY=dist/glitchbox measures the compiled binary (what a studio runs) instead of the server from source.
const up = await startServer({ dataDir, env: serverEnv, binary: process.env.BINARY, bunArgs: process.env.BUN_ARGS?.split(' ') })
// ATTACH_MB adds an attachment of that size (ATTACH_MB=9 makes each body ~19 MB of JSON).
const attachMb = Number(process.env.ATTACH_MB ?? 0)
const attachments = attachMb > 0 ? [{ filename: 'frame.png', mime_type: 'image/png', data: screenshotDataUrl(attachMb * 1024 * 1024).split(',')[1] }] : undefined
const big = JSON.stringify({ title: 'Screenshot report', description: 'See the screenshot', screenshot: screenshotDataUrl(5 * 1024 * 1024), attachments })
const [uploads, health] = await Promise.all([
  wrk({ url: `${up.url}/api/bugs/submit`, seconds, connections: 4, method: 'POST', spreadIps: true, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: big }),
  wrk({ url: `${up.url}/health`, seconds, connections: 2 }),
])
console.log(`${fmt(`POST /api/bugs/submit (5 MB screenshot${attachMb ? ` + ${attachMb} MB attachment` : ''})`, uploads)}  = ${((uploads.rps * big.length) / 2 ** 20).toFixed(0)} MB/s of JSON`)
console.log(fmt('GET /health during the big uploads', health))
console.log(`server peak RSS (VmHWM) during the big uploads: ${await peakRssMb(up.proc.pid)} MB (target < 300 MB)`)
await up.stop()
rmSync(dataDir, { recursive: true, force: true })

if (submit && batch && baseline) console.log(`\nsubmit: ${submit.rps.toFixed(0)} reports/s = ${ratio(submit, baseline)}x the bare insert baseline (target >= 0.5x); events: ${Math.round(batch.rps * 50)}/s (target >= 200,000/s)`)
