// A path segment that is not valid percent-encoded UTF-8 (a lone surrogate, a bare `%`, `%FF`) reaches
// route handlers as null; the fuzz test found a 500 in the integrations routes that way. The pipeline
// now refuses such paths with a 400 before any route runs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('malformed percent-encoding in the path', () => {
  it.each(['%ED%A0%80', '%FF', '%', '%zz', '%C0%AE'])('answers %s in a path parameter with 400 in the envelope', async (segment) => {
    const owner = await createUser(t)
    const { slug } = await createProject(t, owner)
    for (const prefix of ['/api', '/api/v1']) {
      const res = await t.request('POST', `${prefix}/projects/${slug}/integrations/${segment}/targets`, { token: owner.token, body: {} })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ ok: false, error: 'malformed percent-encoding in the request path' })
    }
  })

  it('still serves well-formed escapes (an encoded space, an emoji)', async () => {
    const owner = await createUser(t)
    const { slug } = await createProject(t, owner)
    const res = await t.request('POST', `/api/projects/${slug}/integrations/${encodeURIComponent('🎮 x')}/targets`, { token: owner.token, body: {} })
    expect(res.status).toBe(404)
    expect(res.body.error).toMatch(/unknown provider/)
  })
})
