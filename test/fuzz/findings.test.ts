import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { seedWorld, type World } from './world'

// 5xx the fuzz test found, each replayed as the request that showed it.
let t: TestApp
let w: World
beforeAll(async () => {
  t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
  w = await seedWorld(t)
})
afterAll(() => t.close())

describe('fuzz findings', () => {
  it('import: an external_id with a lone surrogate, imported again, is skipped (was 500 on the unique index)', async () => {
    const send = (bugs: unknown[]) =>
      t.request('POST', `/api/projects/${w.project.slug}/import`, { token: w.owner.token, body: JSON.stringify({ bugs }), headers: { 'content-type': 'application/json' } })
    const first = await send([{ title: 'Imported', external_id: '\ud800' }])
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ created: 1, skipped: 0 })
    const again = await send([{ title: 'Imported', external_id: '\ud800' }])
    expect(again.status).toBe(200)
    expect(again.body.data).toMatchObject({ created: 0, skipped: 1 })
    // Two ids that SQLite stores alike are one id.
    const pair = await send([{ title: 'A', external_id: 'x\udfff' }, { title: 'B', external_id: 'x\ud800' }])
    expect(pair.status).toBe(200)
    expect(pair.body.data).toMatchObject({ created: 1, skipped: 1 })
  })
})

describe('fuzz findings: bounded messages', () => {
  it('integrations: an unknown provider key of 5,000 characters is not echoed whole (was a 5,017-character error)', async () => {
    const key = 'a'.repeat(5_000)
    const res = await t.request('POST', `/api/projects/${w.project.slug}/integrations/${key}/targets`, { token: w.owner.token, body: { secret: 'x' } })
    expect(res.status).toBe(404)
    expect(res.body.ok).toBe(false)
    expect(res.body.error).toMatch(/^unknown provider a{40}…$/)
  })
})
