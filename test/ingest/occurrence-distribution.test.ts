import { Database } from 'bun:sqlite'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { onSqlite } from '../helpers/pg-engine'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember, sdkProject } from '../sdk/sdk-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const title = '[Error] NullReferenceException: Object reference not set to an instance of an object'

/** One report stacked from `sent` submissions of the same crash, each `[version, platform]`. */
async function crashSentFrom(sent: [string, string][]) {
  const ctx = await sdkProject(t)
  for (const [game_version, platform] of sent) {
    t.clock.advance(1000)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: ctx.key, body: { title, description: 'crash', category: 'crash', game_version, platform } })
    expect(res.status).toBeLessThan(300)
  }
  return ctx
}

const get = (slug: string, path: string, token: string) => t.request('GET', `/api/projects/${slug}/bugs${path}`, { token })

describe('GET /api/projects/:slug/bugs/:number/occurrences/distribution', () => {
  it('counts occurrences per version (newest version first, unnamed last) and per platform (most first)', async () => {
    const sent: [string, string][] = [
      ['1.2.0', 'Windows'],
      ['1.2.0', 'Linux'],
      ['1.3.0-beta', 'Windows'],
      ['1.3.0-beta', 'Windows'],
      ['1.3.0-beta', 'Steam Deck'],
      ['', 'Windows'],
      ['1.3.0', ''],
      ['1.10.0', 'Linux'],
    ]
    const { owner, project } = await crashSentFrom(sent)
    const res = await get(project.slug, '/1/occurrences/distribution', owner.token)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      total: 8,
      versions: [
        { value: '1.10.0', count: 1 },
        { value: '1.3.0', count: 1 },
        { value: '1.3.0-beta', count: 3 },
        { value: '1.2.0', count: 2 },
        { value: '', count: 1 },
      ],
      platforms: [
        { value: 'Windows', count: 4 },
        { value: 'Linux', count: 2 },
        { value: 'Steam Deck', count: 1 },
        { value: '', count: 1 },
      ],
    })
    // The same numbers under /api/v1.
    expect((await t.request('GET', `/api/v1/projects/${project.slug}/bugs/1/occurrences/distribution`, { token: owner.token })).body.data.total).toBe(8)
  })

  it('orders versions that are not semantic by when they first appeared, and lists 20 of each at most', async () => {
    const sent: [string, string][] = Array.from({ length: 25 }, (_, i) => [`build-${String.fromCharCode(97 + i)}`, `Console ${i}`])
    const { owner, project } = await crashSentFrom([...sent, ['build-a', 'Console 0']])
    const d = (await get(project.slug, '/1/occurrences/distribution', owner.token)).body.data
    expect(d.total).toBe(26)
    expect(d.versions).toHaveLength(20)
    expect(d.versions[0]).toEqual({ value: 'build-y', count: 1 })
    expect(d.versions.at(-1)).toEqual({ value: 'build-f', count: 1 })
    expect(d.platforms).toHaveLength(20)
    expect(d.platforms[0]).toEqual({ value: 'Console 0', count: 2 })
  })

  it('follows a split: the chosen occurrences count for the new report only', async () => {
    const { owner, project } = await crashSentFrom([
      ['1.2.0', 'Windows'],
      ['1.3.0', 'Linux'],
      ['1.3.0', 'Linux'],
    ])
    const occ = (await get(project.slug, '/1/occurrences?order=newest', owner.token)).body.data.occurrences
    const split = await t.request('POST', `/api/projects/${project.slug}/bugs/1/split`, { token: owner.token, body: { occurrence_ids: [occ[0].id, occ[1].id] } })
    expect(split.status).toBe(201)
    expect((await get(project.slug, '/1/occurrences/distribution', owner.token)).body.data).toEqual({ total: 1, versions: [{ value: '1.2.0', count: 1 }], platforms: [{ value: 'Windows', count: 1 }] })
    expect((await get(project.slug, `/${split.body.data.report_number}/occurrences/distribution`, owner.token)).body.data).toEqual({ total: 2, versions: [{ value: '1.3.0', count: 2 }], platforms: [{ value: 'Linux', count: 2 }] })
  })

  it('answers 404 for an unknown or malformed number and for someone outside the project', async () => {
    const { owner, project } = await crashSentFrom([['1.0.0', 'Windows']])
    for (const n of ['2', '0', 'abc', '1e3']) {
      const res = await get(project.slug, `/${n}/occurrences/distribution`, owner.token)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ ok: false, error: 'report not found' })
    }
    const stranger = await sdkProject(t)
    expect((await get(project.slug, '/1/occurrences/distribution', stranger.owner.token)).status).toBe(404)
    const member = await addMember(t, owner, { 'bugs.view': false })
    expect((await get(project.slug, '/1/occurrences/distribution', member)).status).toBe(403)
  })

  it.skipIf(!onSqlite)('reads the report through its occurrences index, in one GROUP BY (SQLite: query plan)', async () => {
    const { owner, project } = await crashSentFrom([['1.0.0', 'Windows']])
    const seen: string[] = []
    // Every connection's statements: reads run on the seam's read-only connection, not on t.sqlite.
    const original = Database.prototype.prepare
    const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database, sql: string, ...rest: never[]) {
      seen.push(sql)
      return original.call(this, sql, ...rest)
    } as never)
    try {
      expect((await get(project.slug, '/1/occurrences/distribution', owner.token)).status).toBe(200)
    } finally {
      spy.mockRestore()
    }
    const grouped = seen.filter((sql) => /from "report_occurrences"/i.test(sql))
    expect(grouped).toHaveLength(1)
    expect(grouped[0]).toMatch(/group by/i)
    const plan = (t.sqlite.prepare(`EXPLAIN QUERY PLAN ${grouped[0]}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ')
    expect(plan).toContain('USING INDEX report_occurrences_report_idx')
  })
})

describe('GET /api/projects/:slug/bugs/:number/occurrences?per_page=', () => {
  it('pages by per_page (1 to 50) and refuses other sizes', async () => {
    const { owner, project } = await crashSentFrom([
      ['1', 'a'],
      ['2', 'b'],
      ['3', 'c'],
    ])
    const p2 = (await get(project.slug, '/1/occurrences?per_page=2&page=2', owner.token)).body.data
    expect(p2).toMatchObject({ total: 3, page: 2, per_page: 2 })
    expect(p2.occurrences.map((o: { game_version: string }) => o.game_version)).toEqual(['1'])
    for (const bad of ['0', '51', 'x']) {
      const res = await get(project.slug, `/1/occurrences?per_page=${bad}`, owner.token)
      expect(res.status).toBe(400)
      expect(res.body.ok).toBe(false)
    }
  })
})
