import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
let user: TestUser
const ALL_ON = { email_bug_created: true, email_bug_status: true, email_bug_assigned: true, email_bug_commented: true, email_weekly_digest: true }

beforeEach(async () => {
  t = createTestApp()
  user = await createUser(t)
})
afterEach(() => t.close())

const get = (u = user) => t.request('GET', '/api/notifications/preferences', { token: u.token })
const put = (body: unknown, u = user) => t.request('PUT', '/api/notifications/preferences', { token: u.token, body })

describe('GET/PUT /notifications/preferences', () => {
  it('starts with every preference on', async () => {
    expect(await get()).toMatchObject({ status: 200, body: { ok: true, data: ALL_ON } })
  })

  const cases: [string, unknown, number, Record<string, boolean> | RegExp][] = [
    ['one field', { email_weekly_digest: false }, 200, { ...ALL_ON, email_weekly_digest: false }],
    ['several fields', { email_bug_created: false, email_bug_status: false }, 200, { ...ALL_ON, email_bug_created: false, email_bug_status: false }],
    ['known field with unknown ones', { email_bug_assigned: false, sms: true }, 200, { ...ALL_ON, email_bug_assigned: false }],
    ['empty body', {}, 400, /no valid fields to update/],
    ['only unknown fields', { push_enabled: true }, 400, /no valid fields to update/],
    ['not a boolean', { email_bug_created: 'no' }, 400, /email_bug_created/],
  ]
  it.each(cases)('PUT %s → %i', async (_label, body, status, expected) => {
    const res = await put(body)
    expect(res.status).toBe(status)
    if (expected instanceof RegExp) {
      expect(res.body).toEqual({ ok: false, error: expect.stringMatching(expected) })
      expect((await get()).body.data).toEqual(ALL_ON)
    } else {
      expect(res.body).toEqual({ ok: true, data: expected })
      expect((await get()).body.data).toEqual(expected)
    }
  })

  it('keeps earlier changes on a later partial PUT, per user', async () => {
    await put({ email_bug_created: false })
    await put({ email_bug_commented: false })
    await put({ email_bug_created: true })
    expect((await get()).body.data).toEqual({ ...ALL_ON, email_bug_commented: false })
    const other = await createUser(t)
    expect((await get(other)).body.data).toEqual(ALL_ON)
  })

  it('needs a session', async () => {
    expect((await t.request('GET', '/api/notifications/preferences')).status).toBe(401)
    expect((await t.request('PUT', '/api/notifications/preferences', { body: { email_bug_created: false } })).status).toBe(401)
    expect((await t.request('GET', '/api/notifications/preferences', { token: 'bogus' })).status).toBe(401)
  })
})
