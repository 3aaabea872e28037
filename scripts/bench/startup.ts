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
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
console.log(`# Glitchbox start-up benchmark\n${hardware()}; load average before: ${load}; ${runs} runs per binary\n`)

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

async function once(binary: string, port: number): Promise<{ ms: number; rss: number }> {
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
    await Bun.sleep(2000)
    return { ms, rss: rssMb(child.pid) }
  } finally {
    child.kill('SIGTERM')
    await child.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
for (const binary of binaries) {
  const results = []
  for (let i = 0; i < runs; i++) results.push(await once(binary, 30000 + Math.floor(Math.random() * 20000)))
  const ms = results.map((r) => r.ms)
  console.log(`${binary}: healthy in ${Math.round(median(ms))} ms median (${Math.round(Math.min(...ms))}–${Math.round(Math.max(...ms))}), idle RSS ${Math.round(median(results.map((r) => r.rss)))} MB`)
}
