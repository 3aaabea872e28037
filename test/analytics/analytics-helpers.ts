import { and, eq } from 'drizzle-orm'
import { eventNames, events, perfSnapshots, players, playSessions } from '../../src/modules/sdk/sdk.table'
import { rollUpAnalytics } from '../../src/modules/analytics/analytics.rollup'
import type { PlanKey } from '../../src/modules/auth/plans'
import { newId } from '../../src/lib/ids'
import { createProject, createUser, type TestProject } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

/** Test clock start: noon UTC on 2026-01-05. */
export const NOW = '2026-01-05T12:00:00.000Z'
export const DAY = 86_400_000
export const at = (daysAgo: number, hour = 12) => new Date(Date.parse(NOW) - daysAgo * DAY + (hour - 12) * 3600_000)

/** An app with an owner on `plan` and one project. */
export async function setup(plan: PlanKey = 'self_hosted') {
  const t = createTestApp({ start: NOW })
  const owner = await createUser(t, { plan })
  const project = await createProject(t, owner)
  const get = (path: string, token = owner.token) => t.request('GET', `/api/projects/${project.slug}${path}`, { token })
  return { t, owner, project, get }
}

let seq = 0

/** Stores `n` sessions as the SDK would have (started, and ended unless `open`), `crashed` of them crashed; records their player. */
export async function addSessions(t: TestApp, project: TestProject, o: { n: number; crashed?: number; version?: string; platform?: string; player?: string | null; daysAgo?: number; open?: number }) {
  const started = at(o.daysAgo ?? 0, 10)
  // One write for many rows: 8,000 writes one by one took over 30 s on PostgreSQL on a busy machine.
  const rows: (typeof playSessions.$inferInsert)[] = []
  for (let i = 0; i < o.n; i++) {
    const open = i < (o.open ?? 0)
    const player = o.player === undefined ? null : o.player
    rows.push({
        id: newId(),
        projectId: project.id,
        token: `tok-${++seq}-session`,
        playerId: player,
        platform: o.platform ?? 'windows',
        gameVersion: o.version ?? '1.0.0',
        startedAt: started,
        endedAt: open ? null : new Date(started.getTime() + 600_000),
        crashed: !open && i >= (o.open ?? 0) && i < (o.open ?? 0) + (o.crashed ?? 0),
        durationSec: open ? null : 600,
      })
    if (player)
      await t.deps.db.write((q) => q.insert(players)
        .values({ projectId: project.id, playerId: player, name: `Name ${player}`, firstSeen: started, lastSeen: started, sessionCount: 1 })
        .onConflictDoUpdate({ target: [players.projectId, players.playerId], set: { lastSeen: started } })
        )
  }
  await t.deps.db.write(async (q) => {
    for (let i = 0; i < rows.length; i += 500) await q.insert(playSessions).values(rows.slice(i, i + 500))
  })
}

/** Stores telemetry events of one name. */
export async function addEvents(t: TestApp, project: TestProject, name: string, rows: { daysAgo: number; session?: string | null; data?: unknown }[]) {
  const nameId = await t.deps.db.write(async (q) => {
    await q.insert(eventNames).values({ projectId: project.id, name }).onConflictDoNothing()
    return (await q.select({ id: eventNames.id }).from(eventNames).where(and(eq(eventNames.projectId, project.id), eq(eventNames.name, name))))[0]!.id
  })
  for (const r of rows)
    await t.deps.db.write((q) =>
      q.insert(events).values({ nameId, createdAt: at(r.daysAgo).getTime(), sessionToken: r.session ?? null, platform: 'windows', gameVersion: '1.0.0', data: r.data === undefined ? null : JSON.stringify(r.data) }),
    )
}

/** Stores a performance snapshot (scene-load sample without `reportId`). */
export async function addPerf(t: TestApp, project: TestProject, o: { reportId?: string | null; fps?: number; frameTimeMs?: number; memoryUsedMb?: number; loadTimeSec?: number }) {
  await t.deps.db.write((q) => q.insert(perfSnapshots)
    .values({ id: newId(), projectId: project.id, reportId: o.reportId ?? null, fps: o.fps ?? null, frameTimeMs: o.frameTimeMs ?? null, memoryUsedMb: o.memoryUsedMb ?? null, loadTimeSec: o.loadTimeSec ?? null, createdAt: new Date(Date.parse(NOW) - 1000 * ++seq) })
    )
}

/** Runs what the per-minute rollup job runs. */
export const rollUp = (t: TestApp) => rollUpAnalytics(t.deps.db, t.clock.now())
