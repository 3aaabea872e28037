// The SDK submit write path with 0 and 3 webhooks attached, in-process (app.handle, no sockets) and
// with no job runner, so only what the writer's transaction pays for webhooks is measured.
// Usage: bun scripts/bench/webhooks-write-path.ts [reports per side]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config/config'
import { rawSqlite } from '../../src/db/client'
import { buildDeps } from '../../src/deps'
import { newId, randomBase62 } from '../../src/lib/ids'
import { silentLogger } from '../../src/lib/logger'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { projects } from '../../src/modules/projects/projects.table'
import { webhooks } from '../../src/modules/webhooks/webhooks.table'

const count = Number(process.argv[2] ?? 4000)
const BLOCK = 256
const IN_FLIGHT = 32
const desc = 'When I open the inventory during the boss fight the game stutters and sometimes freezes. '.repeat(22).slice(0, 1900)

/** A fresh data dir whose project has `hooks` webhooks; `submit(total)` files that many reports, IN_FLIGHT at a time. */
async function setup(hooks: number) {
  const dir = mkdtempSync(join(tmpdir(), 'glitchbox-whwp-'))
  const config = loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true', GLITCHBOX_LOG_LEVEL: 'warn' }, {}, 'bench')
  const deps = buildDeps(config, { logger: silentLogger })
  const app = createApp(deps)
  const now = new Date()
  const user = await createUserWithAccount(deps.db, { email: 'bench@example.com', name: 'Bench', passwordHash: null }, 'studio', now)
  const apiKey = `sk_live_${randomBase62(40)}`
  const projectId = newId()
  deps.db.insert(projects).values({ id: projectId, accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench', slug: 'bench', apiKey, createdAt: now, updatedAt: now }).run()
  for (let i = 0; i < hooks; i++) {
    const url = `http://127.0.0.1:${9000 + i}/hook`
    deps.db.insert(webhooks).values({ id: newId(), projectId, name: `Hook ${i}`, url, secret: 'bench-secret', eventTypes: 'bug_created,bug_updated,comment_added', createdBy: user.id, createdAt: now }).run()
  }
  let n = 0
  const one = async () => {
    const i = n++
    const res = await app.handle(
      new Request('http://localhost/api/bugs/submit', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
        body: JSON.stringify({ title: `write path crash ${i}`, description: desc, platform: 'Windows', game_version: '1.0.0', device_info: 'RTX 3060' }),
      }),
    )
    if (res.status !== 201) throw new Error(`submit: ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
  }
  return {
    hooks,
    wallMs: 0,
    cpuMs: 0,
    async submit(total: number) {
      for (let i = 0; i < total; i += IN_FLIGHT) await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, total - i) }, one))
    },
    close() {
      rawSqlite(deps.db).close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

// Both sides run in one process, in alternating blocks, so load from other processes on a shared
// machine falls on both alike; CPU time of this (single-threaded) process is the steadier figure.
const sides = [await setup(0), await setup(3)]
for (const s of sides) await s.submit(300)
for (let done = 0, b = 0; done < count; done += BLOCK, b++) {
  for (const s of b % 2 ? [...sides].reverse() : sides) {
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    await s.submit(Math.min(BLOCK, count - done))
    s.wallMs += performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    s.cpuMs += (cpu.user + cpu.system) / 1000
  }
}
const rate = (ms: number) => count / (ms / 1000)
console.log(`submit write path: ${count} reports per side in alternating blocks of ${BLOCK}, ${IN_FLIGHT} in flight, no job runner`)
for (const s of sides) console.log(`  ${s.hooks} webhooks: ${rate(s.wallMs).toFixed(0)} reports/s wall, ${rate(s.cpuMs).toFixed(0)} reports/s per CPU second`)
const [a, b] = sides as [Awaited<ReturnType<typeof setup>>, Awaited<ReturnType<typeof setup>>]
console.log(`  ratio 3 vs 0 webhooks: ${(a.wallMs / b.wallMs).toFixed(2)}x wall, ${(a.cpuMs / b.cpuMs).toFixed(2)}x CPU (target ≥ 0.85x)`)
for (const s of sides) s.close()
