// How old the SDK's raw telemetry is and what a day of it counts, as retention reads them through the
// SDK's repository (sdk.retention.repository.ts): per project along the (project, time) index, the
// projects given as a VALUES list, on both engines.
import { afterEach, expect, it } from 'vitest'
import { DAY } from '../../src/lib/clock'
import { newId } from '../../src/lib/ids'
import { createRetentionRepository } from '../../src/modules/retention/retention.repository'
import { perfSnapshots, playSessions } from '../../src/modules/sdk/sdk.table'
import { createProject, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
afterEach(() => t.close())

const T0 = Date.UTC(2026, 0, 10)

it('the oldest kept session and perf snapshot are the oldest of any project, and none without rows', async () => {
  t = createTestApp()
  const owner = await createUser(t)
  const [a, b] = [await createProject(t, owner), await createProject(t, owner)]
  const repo = createRetentionRepository({ db: t.deps.db })
  expect(await repo.oldestSessionAt()).toBeNull()
  expect(await repo.oldestPerfAt()).toBeNull()

  const session = (projectId: string, startedAt: number, o: { ended?: boolean; crashed?: boolean; version?: string } = {}) => ({
    id: newId(),
    projectId,
    token: newId(),
    playerId: 'p1',
    gameVersion: o.version ?? '1.0',
    platform: 'win',
    startedAt: new Date(startedAt),
    endedAt: o.ended ? new Date(startedAt + 60_000) : null,
    crashed: o.crashed ?? false,
    durationSec: o.ended ? 60 : null,
  })
  await t.deps.db.write((q) =>
    q.insert(playSessions).values([session(a.id, T0 + 3 * DAY, { ended: true }), session(b.id, T0 + DAY, { ended: true, crashed: true }), session(b.id, T0 + 5 * DAY)]),
  )
  await t.deps.db.write((q) =>
    q.insert(perfSnapshots).values([
      { id: newId(), projectId: a.id, fps: 60, createdAt: new Date(T0 + 2 * DAY) },
      { id: newId(), projectId: b.id, fps: 30, createdAt: new Date(T0 + 4 * DAY) },
    ]),
  )

  expect(await repo.oldestSessionAt()).toBe(T0 + DAY)
  expect(await repo.oldestPerfAt()).toBe(T0 + 2 * DAY)

  const day = await repo.sessionsBetween(new Date(T0 + DAY), new Date(T0 + 2 * DAY))
  expect(day).toEqual([{ projectId: b.id, gameVersion: '1.0', platform: 'win', started: 1, ended: 1, crashed: 1, players: 1, durationSec: 60, environment: '' }])
})
