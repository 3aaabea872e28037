import { afterAll, describe, expect, it } from 'vitest'
import { unityError } from '../helpers/crash-payloads'
import { removeTempDataDirs, startServer } from '../helpers/server-process'
import { studioDataDir } from '../helpers/studio-data-dir'

afterAll(removeTempDataDirs)

/**
 * Issue 22 against the real server process: the launch-day mistakes of grouping by title (one Unity
 * message thrown in two places merged, one Unreal crash split by its addresses), regressions,
 * counts of concurrent submissions, and split and merge, all over HTTP.
 */
async function studio() {
  const { dataDir, project, owner } = await studioDataDir()
  const server = await startServer({ dataDir, env: { GLITCHBOX_TRUST_PROXY: 'true' } })
  const call = async (method: string, path: string, body?: unknown, o: { sdk?: boolean; ip?: string } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': o.ip ?? '10.9.0.1' }
    if (o.sdk) headers['x-api-key'] = project.apiKey
    else headers.authorization = `Bearer ${owner.token}`
    const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' })
    return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as { data: Record<string, any> } & Record<string, any> }
  }
  const submit = (body: Record<string, unknown>, ip?: string) => call('POST', '/api/bugs/submit', body, { sdk: true, ip })
  const bug = async (n: number) => (await call('GET', `/api/projects/${project.slug}/bugs/${n}`)).body.data.bug
  return { server, project, call, submit, bug }
}

describe('grouping crashes on the server process (issue 22)', () => {
  it('splits one Unity message thrown in two places, joins one crash sent with different addresses, and counts concurrent players', { timeout: 60_000 }, async () => {
    const s = await studio()
    try {
      const inventory = await s.submit(unityError('InventoryPanel.cs', 'InventoryPanel.Refresh', 42))
      const boost = await s.submit(unityError('BoostController.cs', 'BoostController.Update', 17))
      expect([inventory.status, boost.status]).toEqual([201, 201])
      const again = await s.submit(unityError('InventoryPanel.cs', 'InventoryPanel.Refresh', 57, { title: '[Error] NullReferenceException: slot 3 was null' }))
      expect(again.status).toBe(200)
      expect(again.body.data).toMatchObject({ report_number: inventory.body.data.report_number, deduplicated: true })

      const unreal = []
      for (const address of ['0x40', '0x48', '0xDEADBEEF']) unreal.push(await s.submit({ title: `[Error] EXCEPTION_ACCESS_VIOLATION reading address ${address}`, description: 'Unhandled Exception', category: 'crash' }))
      expect(unreal.map((a) => a.status)).toEqual([201, 200, 200])

      // Twenty players hit the boost crash at once, from four builds.
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) => s.submit({ ...unityError('BoostController.cs', 'BoostController.Update', 17 + i), player_id: `player-${i}`, game_version: `1.${i % 4}.0` }, `10.9.1.${i}`)),
      )
      expect(burst.every((a) => a.status === 200 && a.body.data.report_number === boost.body.data.report_number)).toBe(true)
      const read = await s.bug(boost.body.data.report_number)
      expect(read).toMatchObject({ occurrence_count: 21, player_count: 20, grouping_label: 'NullReferenceException at BoostController.Update (BoostController.cs)', last_version: expect.stringMatching(/^1\.[0-3]\.0$/) })
      expect([...read.versions].sort()).toEqual(['1.0.0', '1.1.0', '1.2.0', '1.3.0'])
      const occurrences = await s.call('GET', `/api/projects/${s.project.slug}/bugs/${boost.body.data.report_number}/occurrences?order=oldest`)
      // Each occurrence keeps its own stack trace: the line numbers of all twenty-one submissions are there.
      const lines = occurrences.body.data.occurrences.map((o: { description: string }) => Number(/BoostController\.cs:(\d+)/.exec(o.description)![1]))
      expect(lines.slice(1).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 17 + i))
      const list = await s.call('GET', `/api/projects/${s.project.slug}/bugs?sort=players`)
      expect(list.body.data.bugs[0]).toMatchObject({ report_number: boost.body.data.report_number, player_count: 20 })
    } finally {
      await s.server.stop()
    }
  })

  it('reopens a resolved crash from a newer build as a regression, never a closed one, and round-trips split and merge', { timeout: 60_000 }, async () => {
    const s = await studio()
    try {
      const first = await s.submit(unityError('Save.cs', 'SaveGame.Write', 10, { game_version: '1.2.0' }))
      const n = first.body.data.report_number
      expect((await s.call('PATCH', `/api/projects/${s.project.slug}/bugs/${n}`, { status: 'resolved' })).status).toBe(200)
      expect(await s.bug(n)).toMatchObject({ status: 'resolved', resolved_in_version: '1.2.0' })
      expect((await s.submit(unityError('Save.cs', 'SaveGame.Write', 11, { game_version: '1.2.0' }))).body.data.regression).toBeUndefined()
      expect((await s.bug(n)).status).toBe('resolved')
      const back = await s.submit(unityError('Save.cs', 'SaveGame.Write', 12, { game_version: '1.3.0' }))
      expect(back.body.data).toMatchObject({ report_number: n, regression: { resolved_in_version: '1.2.0', version: '1.3.0' } })
      expect(await s.bug(n)).toMatchObject({ status: 'open', regressed_in_version: '1.3.0', occurrence_count: 3 })

      await s.call('PATCH', `/api/projects/${s.project.slug}/bugs/${n}`, { status: 'closed' })
      const afterClose = await s.submit(unityError('Save.cs', 'SaveGame.Write', 13, { game_version: '1.4.0' }))
      expect(afterClose.status).toBe(201)
      expect(afterClose.body.data.report_number).not.toBe(n)

      // Split the newest occurrence of the new report's crash out, then merge it back.
      const m = afterClose.body.data.report_number
      await s.submit(unityError('Save.cs', 'SaveGame.Write', 14, { game_version: '1.4.1', player_id: 'split-me' }))
      const occ = (await s.call('GET', `/api/projects/${s.project.slug}/bugs/${m}/occurrences`)).body.data.occurrences
      const split = await s.call('POST', `/api/projects/${s.project.slug}/bugs/${m}/split`, { occurrence_ids: [occ[0].id] })
      expect(split.status).toBe(201)
      expect(await s.bug(split.body.data.report_number)).toMatchObject({ player_id: 'split-me', game_version: '1.4.1', occurrence_count: 1 })
      const merged = await s.call('POST', `/api/projects/${s.project.slug}/bugs/${m}/merge`, { numbers: [split.body.data.report_number] })
      expect(merged.body.data).toMatchObject({ merged: [split.body.data.report_number], occurrence_count: 2 })
      const gone = await s.call('GET', `/api/projects/${s.project.slug}/bugs/${split.body.data.report_number}`)
      expect(gone.status).toBe(308)
      expect(gone.headers.get('location')).toContain(`/bugs/${m}`)
    } finally {
      await s.server.stop()
    }
  })
})
