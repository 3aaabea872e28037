/**
 * What catching the analytics rollups up on read costs (issue 24): a launch day (5,000 submissions,
 * 450 sessions) sent through the SDK routes in-process, then `/release-health` read while the rollups
 * are behind (each read counts at most 2,000 occurrences and 2,000 sessions) and once they are up to
 * date (30 timed reads after 3 warm-ups); also the bare up-to-date check of `catchUpRollups`.
 *
 *   bun scripts/bench/analytics-catch-up.ts
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config/config'
import { buildDeps } from '../../src/deps'
import { FakeClock } from '../../src/lib/clock'
import { randomBase62, newId } from '../../src/lib/ids'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { catchUpRollups } from '../../src/modules/analytics/analytics.freshness'
import { createSession } from '../../src/modules/auth/auth.sessions'
import { projects } from '../../src/modules/projects/projects.table'
import { seedLaunchDay } from '../../test/helpers/launch-day'
import { hardware } from './lib'

const dir = mkdtempSync(join(tmpdir(), 'glitchbox-catch-up-bench-'))
const clock = new FakeClock('2026-06-01T15:00:00Z')
const deps = buildDeps(loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_LOG_LEVEL: 'error', GLITCHBOX_RATE_LIMIT_GLOBAL: '0', GLITCHBOX_RATE_LIMIT_PUBLIC: '0' }, {}, 'bench'), { clock })
const app = createApp(deps)
const user = await createUserWithAccount(deps.db, { email: 'bench@example.com', name: 'Bench', passwordHash: null }, 'self_hosted', clock.now())
const token = await createSession(deps.db, user.id, clock.now())
const apiKey = `sk_live_${randomBase62(40)}`
deps.db.insert(projects).values({ id: newId(), accountId: user.currentAccountId!, createdBy: user.id, name: 'Launch', slug: 'launch', apiKey, createdAt: clock.now(), updatedAt: clock.now() }).run()

const call = async (method: string, path: string, body?: unknown, auth: Record<string, string> = {}) => {
  const res = await app.handle(new Request(`http://localhost${path}`, { method, headers: { 'content-type': 'application/json', ...auth }, body: body === undefined ? undefined : JSON.stringify(body) }))
  await res.arrayBuffer()
  return res
}
const t0 = performance.now()
await seedLaunchDay({
  submit: (body) => call('POST', '/api/bugs/submit', body, { 'x-api-key': apiKey }),
  session: async (start, crashed) => {
    await call('POST', '/api/sessions/start', { api_key: apiKey, ...start })
    await call('POST', '/api/sessions/end', { api_key: apiKey, session_token: start.session_token, crashed })
  },
})
console.log(`${hardware()}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
console.log(`seeded the launch day in ${((performance.now() - t0) / 1000).toFixed(1)} s; the rollups have counted nothing yet`)
// Everything was stored at one fake instant; a second later, numbers behind say that instant.
clock.advance(1_000)

const read = async () => {
  const s = performance.now()
  const res = await call('GET', '/api/projects/launch/release-health', undefined, { authorization: `Bearer ${token}` })
  return { ms: performance.now() - s, fresh: res.headers.get('x-glitchbox-fresh-as-of') }
}
for (let i = 1; i <= 4; i++) {
  const r = await read()
  console.log(`read ${i} while behind: ${r.ms.toFixed(1)} ms, ${r.fresh === clock.now().toISOString() ? 'up to date' : `still behind (fresh as of ${r.fresh})`}`)
}
for (let i = 0; i < 3; i++) await read()
const times: number[] = []
for (let i = 0; i < 30; i++) times.push((await read()).ms)
times.sort((a, b) => a - b)
console.log(`up to date, /release-health: p50 ${times[14]!.toFixed(1)} ms, p95 ${times[28]!.toFixed(1)} ms`)
const check = performance.now()
for (let i = 0; i < 1_000; i++) await catchUpRollups(deps)
console.log(`up to date, catchUpRollups alone: ${(((performance.now() - check) / 1_000) * 1_000).toFixed(1)} µs a read`)
rmSync(dir, { recursive: true, force: true })
process.exit(0)
