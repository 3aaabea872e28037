// Issue 28 finding 10: after kill -9 runs during submits, 2,088 files were on disk for 2,081 rows: a
// process killed between writing an upload and committing its row leaves the file behind, forever.
// A nightly job removes stored files that no row names once they are an hour old; younger ones may
// belong to an upload still in flight and stay.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY, HOUR, MINUTE } from '../../src/lib/clock'
import { collectJobs } from '../../src/jobs/registry'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const pathOf = (key: string) => join(t.dir, 'files', key.slice(0, 2), key)

/** Sets a stored file's modification time to `ageMs` before the app's clock. */
function age(key: string, ageMs: number) {
  const at = new Date(t.clock.now().getTime() - ageMs)
  utimesSync(pathOf(key), at, at)
}

/** A file on disk with no row, as a killed process leaves it. */
function orphan(key: string, ageMs: number) {
  mkdirSync(join(t.dir, 'files', key.slice(0, 2)), { recursive: true })
  writeFileSync(pathOf(key), 'half an upload')
  age(key, ageMs)
}

describe('the orphan-file sweep', () => {
  it('runs nightly through the job queue and removes only files no row names that are over an hour old', async () => {
    const kept = await t.deps.files.store(t.deps.db, { data: new TextEncoder().encode('player log'), fileName: 'player.log', kind: 'attachment', maxBytes: 1024 })
    age(kept.key, 3 * HOUR)
    const old = `${'Ab'.repeat(22)}.png`
    const young = `${'Ab'.repeat(21)}Cd.txt`
    orphan(old, 2 * HOUR)
    orphan(young, 30 * MINUTE)
    // Not a stored file's name: not the sweep's to judge.
    orphan('Ab-notes.txt', 2 * HOUR)

    const schedule = collectJobs(t.deps).schedules.find((s) => s.name === 'retention.orphan-files')!
    await schedule.run()
    await schedule.run()
    expect((await sqlRows(t, "SELECT count(*) AS n FROM jobs WHERE kind = 'retention.orphan-files'"))[0]).toEqual({ n: 1 })
    await t.runner.drain()

    expect(existsSync(pathOf(old))).toBe(false)
    expect(existsSync(pathOf(young))).toBe(true)
    expect(existsSync(pathOf('Ab-notes.txt'))).toBe(true)
    expect(existsSync(pathOf(kept.key))).toBe(true)
    const opened = await t.deps.files.open(t.deps.db, kept.key)
    expect(await opened!.body.text()).toBe('player log')
    expect(t.logs.filter((l) => l.msg === 'removed stored files no row names')).toEqual([expect.objectContaining({ files_removed: 1 })])

    // The next night the young one is old enough, and goes too.
    t.clock.advance(DAY)
    age(kept.key, 3 * HOUR)
    await schedule.run()
    await t.runner.drain()
    expect(existsSync(pathOf(young))).toBe(false)
    expect(existsSync(pathOf(kept.key))).toBe(true)
  })
})
