// Where the real server spends the SDK submit load, per thread: CPU time per request of each thread
// (the request thread, the job thread...), bytes and write calls per request, and how many reports
// were filed. On a shared VM, CPU per request is steadier than throughput (workers show as "Worker#tid").
// PROFILE=dir also writes a CPU profile of the server (markdown) into dir.
// Usage: bun scripts/bench/sdk-threads.ts   (BENCH_SECONDS=10)
import { Database } from 'bun:sqlite'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DB_FILE } from '../../src/deps'
import { hardware, startServer, wrk } from './lib'
import { reportTemplate, seedDataDir, submitLua } from './sdk-load'

/** CPU ms so far of each thread of `pid`, by thread name (the main thread as "request"). */
function threadCpuMs(pid: number): Record<string, number> {
  const out: Record<string, number> = {}
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    const name = tid === String(pid) ? 'request' : `${readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()}#${tid}`
    // utime + stime, in clock ticks of 10 ms.
    out[name] = (Number(fields[11]) + Number(fields[12])) * 10
  }
  return out
}

/** Bytes written and write calls so far by `pid` (files and sockets alike). */
function writes(pid: number): { bytes: number; calls: number } {
  const io = Object.fromEntries(readFileSync(`/proc/${pid}/io`, 'utf8').trim().split('\n').map((l) => l.split(': ') as [string, string]))
  return { bytes: Number(io.wchar), calls: Number(io.syscw) }
}

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const profileDir = process.env.PROFILE
console.log(`${hardware()}; wrk 1 thread, 32 connections, ${seconds}s, new 2 KB reports\n`)
const dataDir = mkdtempSync(join(tmpdir(), 'glitchbox-bench-threads-'))
const apiKey = await seedDataDir(dataDir)
const server = await startServer({
  dataDir,
  env: { GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_LOG_LEVEL: 'warn' },
  bunArgs: profileDir ? ['--cpu-prof-md', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=200'] : [],
})
const pid = server.proc.pid
const lua = submitLua(reportTemplate(), apiKey, 'run')
await wrk({ url: `${server.url}/api/bugs/submit`, seconds: 2, lua: submitLua(reportTemplate(), apiKey, 'warm') })
const cpu0 = threadCpuMs(pid)
const io0 = writes(pid)
const load = await wrk({ url: `${server.url}/api/bugs/submit`, seconds, lua })
const cpu1 = threadCpuMs(pid)
const io1 = writes(pid)

const db = new Database(join(dataDir, DB_FILE), { readonly: true })
const count = (table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
console.log(`${Math.round(load.rps)} reports/s, p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms; at the end ${count('reports')} filed`)
db.close()
console.log(`written per request: ${Math.round((io1.bytes - io0.bytes) / load.requests)} bytes in ${((io1.calls - io0.calls) / load.requests).toFixed(1)} write calls`)
console.log('CPU per request, by thread (above 5 µs):')
for (const [name, ms] of Object.entries(cpu1)) {
  const us = ((ms - (cpu0[name] ?? 0)) * 1000) / load.requests
  if (us > 5) console.log(`  ${name.padEnd(24)} ${us.toFixed(0)} µs`)
}
// SIGINT: the server exits through its shutdown path, which writes the profile.
await server.stop('SIGINT')
rmSync(dataDir, { recursive: true, force: true })
