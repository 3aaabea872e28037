// Permissions cannot grow themselves (issue 28, finding 2). `team.permissions` manages *other* members:
// nobody changes its own permissions, and whoever edits a member grants only permissions it holds
// itself (the owner holds all; an admin or member what its role and overrides give it). Swept over
// the whole catalog and the three routes that edit permissions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PERMISSION_GROUPS, PERMISSION_KEYS, ROLE_DEFAULTS, type PermissionKey } from '../../src/modules/permissions/permissions.catalog'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from '../team/team-helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t, { plan: 'pro' })
  project = await createProject(t, owner)
})
afterEach(() => t.close())

const groupOf = (k: PermissionKey) => Object.entries(PERMISSION_GROUPS).find(([, keys]) => (keys as readonly string[]).includes(k))![0]
const holds = async (u: TestUser, k: PermissionKey) => (await t.request('GET', '/api/permissions', { token: u.token })).body.data.permissions[k] as boolean

/** The three ways to set a member's overrides. */
const routes = [
  ['account route', (by: TestUser, userId: string, body: object) => t.request('PUT', `/api/account/members/${userId}/permissions`, { token: by.token, body })],
  ['project route', (by: TestUser, userId: string, body: object) => t.request('PUT', `/api/projects/${project.slug}/permissions`, { token: by.token, body: { ...body, user_id: userId } })],
  ['project member route', (by: TestUser, userId: string, body: object) => t.request('PUT', `/api/projects/${project.slug}/permissions/${userId}`, { token: by.token, body })],
] as const
const resets = [
  (by: TestUser, userId: string) => t.request('DELETE', `/api/account/members/${userId}/permissions`, { token: by.token }),
  (by: TestUser, userId: string) => t.request('DELETE', `/api/projects/${project.slug}/permissions?user_id=${userId}`, { token: by.token }),
  (by: TestUser, userId: string) => t.request('DELETE', `/api/projects/${project.slug}/permissions/${userId}`, { token: by.token }),
]

describe.each(routes)('through the %s', (_, put) => {
  it('a member holding team.permissions grants no key it lacks, by key or by group, and grants every key it holds', async () => {
    for (const k of PERMISSION_KEYS) {
      const lacking = await addMember(t, owner, 'member', { overrides: { 'team.permissions': true, [k]: false } })
      const target = await addMember(t, owner, 'member', { overrides: { [k]: false } })
      // A reset grants the key back when a member holds it by default.
      const grants = [{ permissions: { [k]: true } }, { groups: { [groupOf(k)]: true } }, ...(ROLE_DEFAULTS.member[k] ? [{ reset: true }] : [])]
      for (const body of grants) {
        const res = await put(lacking, target.user.id, body)
        expect([k, body, res.status]).toEqual([k, body, 403])
        expect([k, await holds(target, k)]).toEqual([k, false])
      }
      const holding = await addMember(t, owner, 'member', { overrides: { 'team.permissions': true, [k]: true } })
      expect([k, (await put(holding, target.user.id, { permissions: { [k]: true } })).status]).toEqual([k, 200])
      expect([k, await holds(target, k)]).toEqual([k, true])
    }
  })

  it('nobody changes its own permissions, not even to take one away', async () => {
    for (const k of PERMISSION_KEYS) {
      const self = await addMember(t, owner, 'member', { overrides: { 'team.permissions': true } })
      const before = await holds(self, k)
      for (const body of [{ permissions: { [k]: !before } }, { groups: { [groupOf(k)]: true } }]) {
        const res = await put(self, self.user.id, body)
        expect([k, res.status, res.body.error]).toEqual([k, 403, 'you cannot change your own permissions'])
      }
      expect([k, await holds(self, k)]).toEqual([k, before])
    }
    const admin = await addMember(t, owner, 'admin')
    expect((await put(admin, admin.user.id, { permissions: { 'bugs.view': false } })).status).toBe(403)
  })

  it('an admin grants what it holds and not what an override took from it; the owner grants everything', async () => {
    const admin = await addMember(t, owner, 'admin', { overrides: { 'billing.manage': false } })
    const target = await addMember(t, owner, 'member')
    const refused = await put(admin, target.user.id, { permissions: { 'billing.manage': true, 'webhooks.manage': true } })
    expect([refused.status, refused.body.error]).toEqual([403, 'you can only grant permissions you hold yourself (not billing.manage)'])
    expect(await holds(target, 'webhooks.manage')).toBe(false)
    expect((await put(admin, target.user.id, { permissions: { 'webhooks.manage': true } })).status).toBe(200)
    const all = Object.fromEntries(PERMISSION_KEYS.map((k) => [k, true]))
    expect((await put(owner, target.user.id, { permissions: all })).status).toBe(200)
    for (const k of PERMISSION_KEYS) expect([k, await holds(target, k)]).toEqual([k, true])
  })
})

describe('resetting a member to its role defaults', () => {
  it.each(resets.map((r, i) => [i, r] as const))('is refused (form %i) when the defaults would grant a key the editor lacks, and it is not its own', async (_, reset) => {
    const editor = await addMember(t, owner, 'member', { overrides: { 'team.permissions': true, 'bugs.delete': false, 'bugs.view': false } })
    const target = await addMember(t, owner, 'member', { overrides: { 'bugs.view': false } })
    expect((await reset(editor, target.user.id)).status).toBe(403)
    expect(await holds(target, 'bugs.view')).toBe(false)
    expect((await reset(editor, editor.user.id)).status).toBe(403)
    const revoked = await addMember(t, owner, 'member', { overrides: { 'bugs.delete': true } })
    expect((await reset(editor, revoked.user.id)).status).toBe(200)
    expect(await holds(revoked, 'bugs.delete')).toBe(false)
  })
})
