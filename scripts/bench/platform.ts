// Platform figures: a bare Bun.serve baseline vs /health and an /api route through the full stack,
// plus SQLite single-row insert speed with the server's pragmas. Usage: bun scripts/bench/platform.ts
import { Database } from 'bun:sqlite'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqlite } from '../../src/db/client'
import { fmt, hardware, startScriptServer, startServer, wrk } from './lib'

const seconds = Number(process.env.BENCH_SECONDS ?? 8)
console.log(`# Glitchbox platform benchmark\n${hardware()}; wrk 1 thread, 32 connections, ${seconds}s per run\n`)

const bare = await startScriptServer('servers/bare.ts')
await wrk({ url: `${bare.url}/health`, seconds: 2 }) // warm-up
const baseline = await wrk({ url: `${bare.url}/health`, seconds })
await bare.stop()
console.log(fmt('bare Bun.serve (baseline)', baseline))

const gb = await startServer({ env: { GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_LOG_LEVEL: 'warn' } })
await wrk({ url: `${gb.url}/health`, seconds: 2 })
console.log(fmt('GET /health (full stack)', await wrk({ url: `${gb.url}/health`, seconds }), baseline))
console.log(fmt('GET /api/maintenance/active (db read)', await wrk({ url: `${gb.url}/api/maintenance/active`, seconds, spreadIps: true }), baseline))
await gb.stop()

// Single-row insert speed: why the server sets synchronous=NORMAL explicitly.
function inserts(db: Database, n: number): number {
  db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT)')
  const stmt = db.prepare('INSERT INTO t (body) VALUES (?)')
  const body = 'x'.repeat(2048)
  const start = performance.now()
  for (let i = 0; i < n; i++) stmt.run(body)
  return n / ((performance.now() - start) / 1000)
}
const dir = mkdtempSync(join(tmpdir(), 'glitchbox-bench-'))
const normal = openSqlite(join(dir, 'normal.db'))
const full = openSqlite(join(dir, 'full.db'))
full.exec('PRAGMA synchronous = FULL')
console.log(`\nSQLite 2 KB single-row inserts (autocommit, WAL): synchronous=NORMAL ${inserts(normal, 20000).toFixed(0)}/s, synchronous=FULL ${inserts(full, 2000).toFixed(0)}/s`)
