import { Elysia } from 'elysia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { authPlugin } from '../../src/http/auth.plugin'
import { httpPipeline } from '../../src/http/pipeline'
import { hasPermission, PERMISSION_KEYS, type PermissionKey } from '../../src/modules/permissions/permissions.catalog'
import { createProject, createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from '../team/team-helpers'

/** The lead's decision: what a plain member may do by default. */
const MEMBER_DEFAULTS: Record<PermissionKey, boolean> = {
  'bugs.view': true,
  'bugs.create': true,
  'bugs.edit': true,
  'bugs.assign': true,
  'bugs.delete': false,
  'comments.create': true,
  'labels.manage': true,
  'project.settings': false,
  'project.integrations': false,
  'webhooks.manage': false,
  'team.invite': false,
  'team.permissions': false,
  'analytics.view': true,
  'billing.manage': false,
}

describe('hasPermission', () => {
  it.each(PERMISSION_KEYS)('%s: owner always, admin by default, member per the role defaults, overrides win below owner', (key) => {
    expect(hasPermission('owner', { [key]: false }, key)).toBe(true)
    expect(hasPermission('admin', {}, key)).toBe(true)
    expect(hasPermission('admin', { [key]: false }, key)).toBe(false)
    expect(hasPermission('member', {}, key)).toBe(MEMBER_DEFAULTS[key])
    expect(hasPermission('member', { [key]: !MEMBER_DEFAULTS[key] }, key)).toBe(!MEMBER_DEFAULTS[key])
  })

  it('the catalog holds every key the spec names', () => {
    expect([...PERMISSION_KEYS].sort()).toEqual(Object.keys(MEMBER_DEFAULTS).sort())
  })
})

describe('the one guard (project and account macros), for every key', () => {
  let t: TestApp
  let owner: TestUser
  let probe: { handle(request: Request): Promise<Response> }
  let slug: string
  beforeEach(async () => {
    t = createTestApp()
    owner = await createUser(t, { plan: 'studio' })
    slug = (await createProject(t, owner)).slug
    const app = new Elysia().use(httpPipeline(t.deps)).use(authPlugin(t.deps))
    probe = app
    for (const key of PERMISSION_KEYS) {
      app.get(`/p/:slug/${key}`, () => ({ allowed: true }), { project: key }).get(`/a/${key}`, () => ({ allowed: true }), { accountPermission: key })
    }
  })
  afterEach(() => t.close())

  const call = async (path: string, token: string) => {
    const res = await probe.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }))
    return { status: res.status, body: (await res.json()) as { error?: string } }
  }

  it.each(PERMISSION_KEYS)('%s', async (key) => {
    const member = await addMember(t, owner, 'member')
    const flipped = await addMember(t, owner, 'member', { overrides: { [key]: !MEMBER_DEFAULTS[key] } })
    const admin = await addMember(t, owner, 'admin')
    const restricted = await addMember(t, owner, 'admin', { overrides: { [key]: false } })
    const stranger = await createUser(t)
    for (const path of [`/p/${slug}/${key}`, `/a/${key}`]) {
      const expectations: [TestUser, boolean][] = [
        [owner, true],
        [admin, true],
        [restricted, false],
        [member, MEMBER_DEFAULTS[key]],
        [flipped, !MEMBER_DEFAULTS[key]],
      ]
      for (const [u, allowed] of expectations) {
        const res = await call(path, u.token)
        expect(res.status).toBe(allowed ? 200 : 403)
        if (!allowed) expect(res.body.error).toBe(`you need the ${key} permission`)
      }
    }
    expect((await call(`/p/${slug}/${key}`, stranger.token)).status).toBe(404)
    expect((await call(`/p/no-such-project/${key}`, owner.token)).status).toBe(404)
  })
})
