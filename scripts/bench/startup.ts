// Start-up of the compiled binary on an empty data directory: milliseconds from spawn to a healthy
// /health, and the resident memory once idle, for each binary given (e.g. this commit's and an older
// one's, built with `npm run build` in each checkout). Usage:
//   bun scripts/bench/startup.ts dist/glitchbox [../old/dist/glitchbox …]   (RUNS=7 by default)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { hardware } from './lib'

const runs = Number(process.env.RUNS ?? 7)
const binaries = process.argv.slice(2).map((b) => resolve(b))
if (binaries.length === 0) throw new Error('usage: bun scripts/bench/startup.ts BINARY [BINARY…]')
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
console.log(`# Glitchbox start-up benchmark\n${hardware()}; load average before: ${loadAverage()}; ${runs} runs per binary\n`)

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
// CPU the process (all its threads) used so far, user + system: unlike the wall time, a busy machine
// barely moves it, so two binaries measured at different loads still compare.
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

async function once(binary: string, port: number): Promise<{ ms: number; cpu: number; rss: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'glitchbox-startup-'))
  const started = performance.now()
  const child = Bun.spawn([binary, 'serve'], { cwd: dir, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', GLITCHBOX_LOG_LEVEL: 'warn' }, stdout: 'ignore', stderr: 'ignore' })
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)
      if (ok) break
      if (performance.now() - started > 20_000) throw new Error(`${binary} did not become healthy in 20 s`)
      await Bun.sleep(5)
    }
    const ms = performance.now() - started
    const cpu = cpuMs(child.pid)
    await Bun.sleep(2000)
    return { ms, cpu, rss: rssMb(child.pid) }
  } finally {
    child.kill('SIGTERM')
    await child.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
/** A port free right now on 127.0.0.1 (a random one may be taken by another program). */
function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const { port } = probe
  probe.stop(true)
  return port
}

// Runs take turns between the binaries, so a load that changes during the sitting weighs on each alike.
const byBinary = new Map(binaries.map((b) => [b, [] as Awaited<ReturnType<typeof once>>[]]))
for (let i = 0; i < runs; i++) for (const binary of binaries) byBinary.get(binary)!.push(await once(binary, freePort()))
for (const [binary, results] of byBinary) {
  const ms = results.map((r) => r.ms)
  console.log(`${binary}: healthy in ${Math.round(median(ms))} ms median (${Math.round(Math.min(...ms))}–${Math.round(Math.max(...ms))}), CPU until then ${Math.round(median(results.map((r) => r.cpu)))} ms median, idle RSS ${Math.round(median(results.map((r) => r.rss)))} MB; load average after: ${loadAverage()}`)
}
