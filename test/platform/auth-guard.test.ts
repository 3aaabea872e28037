import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sqlRun } from '../helpers/sql-rows'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('guards run before body validation', () => {
  it('answers 401 to a caller without a session even when the body is invalid', async () => {
    const res = await t.request('POST', '/api/auth/change-password', { body: { nonsense: true } })
    expect(res.status).toBe(401)
  })

  it('answers 404 to a non-member and 403 to a member without the permission, before validating', async () => {
    const owner = await createUser(t)
    const stranger = await createUser(t)
    const project = await createProject(t, owner)
    const bad = { name: 12 }
    expect((await t.request('POST', `/api/projects/${project.slug}/labels`, { token: stranger.token, body: bad })).status).toBe(404)
    await sqlRun(t, 'UPDATE account_members SET permission_overrides = ? WHERE user_id = ?', JSON.stringify({ 'labels.manage': false }), owner.user.id)
    await sqlRun(t, "UPDATE account_members SET role = 'member' WHERE user_id = ?", owner.user.id)
    expect((await t.request('POST', `/api/projects/${project.slug}/labels`, { token: owner.token, body: bad })).status).toBe(403)
  })

  it('answers 401 invalid API key to an SDK call with a bad key and a bad body', async () => {
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: 'sk_live_nope', body: {} })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ ok: false, error: 'invalid API key' })
  })
})
