import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY } from '../../src/lib/clock'
import { collectJobs } from '../../src/jobs/registry'
import { emailVerifications, sessions } from '../../src/modules/auth/auth.table'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { signupViaApi } from './auth-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('auth.prune-expired schedule', () => {
  it('deletes expired sessions and verification tokens and keeps live ones', async () => {
    const old = await signupViaApi(t)
    t.clock.advance(20 * DAY)
    const fresh = await signupViaApi(t)
    t.clock.advance(11 * DAY)
    const prune = collectJobs(t.deps).schedules.find((s) => s.name === 'auth.prune-expired')!
    await prune.run()
    expect(await t.deps.db.read((q) => q.select({ userId: sessions.userId }).from(sessions))).toEqual([{ userId: fresh.user_id }])
    expect(await t.deps.db.read((q) => q.select().from(emailVerifications))).toEqual([])
    expect((await t.request('GET', '/api/auth/me', { token: fresh.token })).status).toBe(200)
    expect((await t.request('GET', '/api/auth/me', { token: old.token })).status).toBe(401)
  })
})

describe('API documentation', () => {
  it('describes every auth route in the OpenAPI document', async () => {
    const res = await t.request('GET', '/openapi.json')
    expect(res.status).toBe(200)
    const paths = Object.keys(res.body.paths)
    for (const p of ['/api/auth/login', '/api/auth/signup', '/api/auth/me', '/api/auth/profile', '/api/auth/verify-email', '/api/account/export', '/api/auth/account']) {
      expect(paths).toContain(p)
    }
  })
})
