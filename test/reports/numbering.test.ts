import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { team } from './setup'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('report numbering under concurrent creates', () => {
  it('gives 1..N with no gaps or duplicates, per project', async () => {
    const a = await team(t)
    const b = await team(t)
    const N = 60
    const create = (ctx: typeof a, i: number) => t.request('POST', `${ctx.base}/bugs`, { token: ctx.owner.token, body: { title: `Concurrent ${i}`, description: 'd' } })
    const results = await Promise.all(Array.from({ length: N }, (_, i) => [create(a, i), create(b, i)]).flat())
    expect(results.every((r) => r.status === 201)).toBe(true)
    for (const ctx of [a, b]) {
      const mine = results.filter((_, i) => (ctx === a ? i % 2 === 0 : i % 2 === 1)).map((r) => r.body.data.report_number as number)
      expect([...mine].sort((x, y) => x - y)).toEqual(Array.from({ length: N }, (_, i) => i + 1))
      const ids = new Set(results.filter((_, i) => (ctx === a ? i % 2 === 0 : i % 2 === 1)).map((r) => r.body.data.id))
      expect(ids.size).toBe(N)
      const listed = (await t.request('GET', `${ctx.base}/bugs`, { token: ctx.owner.token })).body.data
      expect(listed.total).toBe(N)
    }
  })

  it('keeps numbering without gaps after a refused create', async () => {
    const ctx = await team(t)
    const bad = await t.request('POST', `${ctx.base}/bugs`, { token: ctx.owner.token, body: { title: '' } })
    expect(bad.status).toBe(400)
    const ok = await Promise.all([1, 2, 3].map((i) => t.request('POST', `${ctx.base}/bugs`, { token: ctx.owner.token, body: { title: `t${i}`, description: 'd' } })))
    expect(ok.map((r) => r.body.data.report_number).sort()).toEqual([1, 2, 3])
  })
})
