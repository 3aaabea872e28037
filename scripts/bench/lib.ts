// Shared helpers of the benchmark scripts: hardware notes, servers in child processes, wrk runs.
import { cpus, totalmem } from 'node:os'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startServer } from '../../test/helpers/server-process'

export { freePort, startServer }

/** The q-quantile (0.5 for p50, 0.95 for p95) of samples sorted ascending: the sample at that rank. */
export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!

/** One line naming the machine, printed with every set of figures. */
export function hardware(): string {
  return `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Bun ${Bun.version}`
}

export interface LoadResult {
  rps: number
  requests: number
  errors: number
  non2xx: number
  p50: number
  p95: number
  p99: number
}

// Appended to every wrk script: prints the figures as one JSON line.
const DONE_LUA = `
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format('WRKJSON {"requests":%d,"errors":%d,"non2xx":%d,"duration_us":%d,"p50":%f,"p95":%f,"p99":%f}\\n',
    summary.requests, errors, summary.errors.status, summary.duration,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
`

/**
 * Runs wrk against `url` and returns throughput and latency (ms). `lua` may define `request`/`init`;
 * with `spreadIps` every request carries its own X-Forwarded-For so per-IP rate limits do not trip.
 */
export async function wrk(o: { url: string; seconds?: number; connections?: number; threads?: number; method?: string; body?: string; headers?: Record<string, string>; spreadIps?: boolean; lua?: string }): Promise<LoadResult> {
  // Said before any load starts: a missing wrk otherwise surfaces as a spawn error behind running servers.
  if (!Bun.which('wrk')) throw new Error('wrk is not installed (Debian: apt-get install wrk)')
  const dir = mkdtempSync(join(tmpdir(), 'glitchbox-wrk-'))
  let lua = o.lua ?? ''
  if (!o.lua) {
    const headerLines = Object.entries(o.headers ?? {}).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
    const bodyFile = join(dir, 'body')
    if (o.body !== undefined) writeFileSync(bodyFile, o.body)
    lua = `
wrk.method = ${JSON.stringify(o.method ?? 'GET')}
${headerLines.join('\n')}
${o.body !== undefined ? `local f = io.open(${JSON.stringify(bodyFile)}, "rb"); wrk.body = f:read("*a"); f:close()` : ''}
local counter = 0
request = function()
  ${o.spreadIps ? 'counter = counter + 1; wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(counter / 65536) % 256, math.floor(counter / 256) % 256, counter % 256)' : ''}
  return wrk.format()
end
`
  }
  const script = join(dir, 'bench.lua')
  writeFileSync(script, lua + DONE_LUA)
  const args = ['wrk', `-t${o.threads ?? 1}`, `-c${o.connections ?? 32}`, `-d${o.seconds ?? 8}s`, '--timeout', '10s', '-s', script, o.url]
  const proc = Bun.spawn(args, { stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(proc.stdout).text()
  await proc.exited
  const line = out.split('\n').find((l) => l.startsWith('WRKJSON '))
  if (!line) throw new Error(`wrk printed no figures:\n${out}\n${await new Response(proc.stderr).text()}`)
  const r = JSON.parse(line.slice(8)) as { requests: number; errors: number; non2xx: number; duration_us: number; p50: number; p95: number; p99: number }
  return { rps: r.requests / (r.duration_us / 1e6), requests: r.requests, errors: r.errors, non2xx: r.non2xx, p50: r.p50, p95: r.p95, p99: r.p99 }
}

/** Starts a script from scripts/bench/servers/ as a child process on a free port; resolves once it answers. */
export async function startScriptServer(file: string, env: Record<string, string> = {}) {
  const port = await freePort()
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, file)], { env: { ...process.env, PORT: String(port), ...env }, stdout: 'inherit', stderr: 'inherit' })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break
    await Bun.sleep(50)
  }
  return { url, proc, stop: () => { proc.kill(); return proc.exited } }
}

/** Peak resident memory (VmHWM) of a process in MB. */
export async function peakRssMb(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text()
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 1024)
}

/** Formats a row of a results table. */
export const fmt = (name: string, r: LoadResult, baseline?: LoadResult) =>
  `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p95 ${r.p95.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms${baseline ? `  ${(r.rps / baseline.rps).toFixed(2)}x baseline` : ''}${r.errors + r.non2xx ? `  (${r.errors} errors, ${r.non2xx} non-2xx)` : ''}`
