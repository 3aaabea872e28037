// Issue 29, item 6: tags are searchable. A Sentry event's `tags` and the SDK's `metadata.tags` /
// `metadata.custom_fields` (as the Bugnet SDK sends its custom fields) become `tag:key=value` search
// terms and the report page's tag facet (top values with counts); split and merge move them with the
// occurrences that carried them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../helpers/test-app'
import { CAPTURE_KEY, capturedProject, post } from './sentry-routes-helpers'

const crash = (tags: unknown, fn = 'Cave.Load') => ({
  level: 'fatal',
  platform: 'csharp',
  tags,
  exception: { values: [{ type: 'NullReferenceException', value: 'torch is null', stacktrace: { frames: [{ function: fn, filename: 'Cave.cs', lineno: 7, in_app: true }] } }] },
})

let t: TestApp
let ctx: Awaited<ReturnType<typeof capturedProject>>
beforeEach(async () => {
  t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0', GLITCHBOX_RATE_LIMIT_GLOBAL: '0' } })
  ctx = await capturedProject(t)
})
afterEach(() => t.close())

const store = async (event: object) => expect((await post(t, `/api/42/store/?sentry_key=${CAPTURE_KEY}`, JSON.stringify(event))).status).toBe(200)
const base = () => `/api/projects/${ctx.project.slug}/bugs`
const get = async (path: string) => {
  const res = await t.request('GET', path, { token: ctx.owner.token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}
/** The numbers the list shows for `q` (newest first). */
const numbers = async (q: string) => ((await get(`${base()}?q=${encodeURIComponent(q)}`)).bugs as { report_number: number }[]).map((b) => b.report_number)

describe('tag:key=value search', () => {
  it('finds the reports with any occurrence so tagged, from Sentry tags and the SDK submit, without regard to case', async () => {
    await store(crash({ map: 'caves', gpu: 'RTX 3060' }))
    await store(crash({ map: 'forest' }, 'Forest.Load'))
    // Sentry's older form: a list of [key, value] pairs.
    await store(crash([['map', 'caves'], ['quality', 'low']], 'Cave.Render'))
    const sdk = await t.request('POST', '/api/bugs/submit', {
      apiKey: CAPTURE_KEY,
      body: { title: 'Door will not open', description: 'The cave door stays shut', metadata: { custom_fields: { map: 'caves', save_slot: 3 } } },
    })
    expect(sdk.status).toBe(201)
    expect(await numbers('tag:map=caves')).toEqual([4, 3, 1])
    expect(await numbers('tag:MAP=Caves')).toEqual([4, 3, 1])
    expect(await numbers('tag:map=forest')).toEqual([2])
    expect(await numbers('tag:"gpu=RTX 3060"')).toEqual([1])
    expect(await numbers('tag:map=caves tag:quality=low')).toEqual([3])
    expect(await numbers('tag:save_slot=3')).toEqual([4])
    expect(await numbers('tag:map=desert')).toEqual([])
    expect(await numbers('tag:map=caves torch')).toEqual([3, 1])
  })

  it('refuses a tag term without key and value with a 400 that shows the form', async () => {
    for (const q of ['tag:map', 'tag:=caves', 'tag:map=']) {
      const res = await t.request('GET', `${base()}?q=${encodeURIComponent(q)}`, { token: ctx.owner.token })
      expect([q, res.status]).toEqual([q, 400])
      expect(res.body.error).toContain('tag:level=caves')
    }
  })
})

describe("the report page's tag facet", () => {
  it('lists each key with its top values and how many occurrences carried each, most first', async () => {
    for (const map of ['caves', 'caves', 'caves', 'forest']) await store(crash({ map, gpu: map === 'forest' ? 'GTX 1060' : 'RTX 3060' }))
    await store(crash({ map: 'caves' }))
    await store(crash(undefined))
    expect(await get(`${base()}/1/tags`)).toEqual({
      tags: [
        { key: 'map', count: 5, values: [{ value: 'caves', count: 4 }, { value: 'forest', count: 1 }] },
        { key: 'gpu', count: 4, values: [{ value: 'RTX 3060', count: 3 }, { value: 'GTX 1060', count: 1 }] },
      ],
    })
    expect((await t.request('GET', `${base()}/99/tags`, { token: ctx.owner.token })).status).toBe(404)
  })

  it('moves a tag with the occurrences a split takes out, and a merge brings it back', async () => {
    await store(crash({ map: 'caves' }))
    await store(crash({ map: 'forest' }))
    expect(await numbers('tag:map=forest')).toEqual([1])
    const occurrences = (await get(`${base()}/1/occurrences`)).occurrences as { id: string; metadata: { tags: { map: string } } }[]
    const forest = occurrences.find((o) => o.metadata.tags.map === 'forest')!
    expect((await t.request('POST', `${base()}/1/split`, { token: ctx.owner.token, body: { occurrence_ids: [forest.id] } })).status).toBe(201)
    expect(await numbers('tag:map=forest')).toEqual([2])
    expect(await numbers('tag:map=caves')).toEqual([1])
    expect((await get(`${base()}/1/tags`)).tags).toEqual([{ key: 'map', count: 1, values: [{ value: 'caves', count: 1 }] }])
    expect((await t.request('POST', `${base()}/1/merge`, { token: ctx.owner.token, body: { numbers: [2] } })).status).toBe(200)
    expect(await numbers('tag:map=forest')).toEqual([1])
    expect((await get(`${base()}/1/tags`)).tags[0].values).toEqual([
      { value: 'caves', count: 1 },
      { value: 'forest', count: 1 },
    ])
  })
})
