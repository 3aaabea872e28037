import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PermissionKey } from '../../src/modules/permissions/permissions.catalog'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from '../team/team-helpers'

/** Each permission key on a real route it guards; the guard itself is covered for every key in guard.test.ts. */
interface Case {
  key: PermissionKey
  memberDefault: boolean
  request: (c: { project: TestProject; number: number; member: TestUser; peer: TestUser }) => [string, string, unknown?]
}

const cases: Case[] = [
  { key: 'bugs.view', memberDefault: true, request: ({ project }) => ['GET', `/api/projects/${project.slug}/bugs`] },
  { key: 'bugs.create', memberDefault: true, request: ({ project }) => ['POST', `/api/projects/${project.slug}/bugs`, { title: 'Falls through floor', description: 'Level 2' }] },
  { key: 'bugs.edit', memberDefault: true, request: ({ project, number }) => ['PATCH', `/api/projects/${project.slug}/bugs/${number}`, { title: 'Renamed' }] },
  { key: 'bugs.assign', memberDefault: true, request: ({ project, number, member }) => ['PATCH', `/api/projects/${project.slug}/bugs/${number}`, { assigned_to: member.user.id }] },
  { key: 'bugs.delete', memberDefault: false, request: ({ project, number }) => ['DELETE', `/api/projects/${project.slug}/bugs/${number}`] },
  { key: 'comments.create', memberDefault: true, request: ({ project, number }) => ['POST', `/api/projects/${project.slug}/bugs/${number}/comments`, { body: 'Seen it too' }] },
  { key: 'labels.manage', memberDefault: true, request: ({ project }) => ['POST', `/api/projects/${project.slug}/labels`, { name: 'physics' }] },
  { key: 'project.settings', memberDefault: false, request: ({ project }) => ['PATCH', `/api/projects/${project.slug}`, { description: 'A game' }] },
  { key: 'webhooks.manage', memberDefault: false, request: ({ project }) => ['POST', `/api/projects/${project.slug}/webhooks/generic`, { url: 'http://127.0.0.1:9/hook' }] },
  { key: 'team.invite', memberDefault: false, request: () => ['POST', '/api/account/invites', { email: 'new@example.com' }] },
  { key: 'team.permissions', memberDefault: false, request: ({ peer }) => ['PUT', `/api/account/members/${peer.user.id}/permissions`, { permissions: { 'bugs.view': true } }] },
  { key: 'billing.manage', memberDefault: false, request: () => ['GET', '/api/billing/subscription'] },
  {
    key: 'project.integrations',
    memberDefault: false,
    request: ({ project }) => ['POST', `/api/projects/${project.slug}/integrations/slack`, { name: 'Bugs channel', secret: 'https://hooks.slack.com/services/T0000/B0000/abcdefghijklmnop' }],
  },
  { key: 'analytics.view', memberDefault: true, request: ({ project }) => ['GET', `/api/projects/${project.slug}/crash-analytics`] },
]

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  // The webhook target is a loopback address that no test ever delivers to.
  t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
  owner = await createUser(t, { plan: 'pro' })
  project = await createProject(t, owner)
})
afterEach(() => t.close())

describe.each(cases)('$key on its route', ({ key, memberDefault, request }) => {
  it(`a member ${memberDefault ? 'holds it by default and loses it' : 'lacks it by default and gains it'} through an override`, async () => {
    const byDefault = await addMember(t, owner, 'member')
    const overridden = await addMember(t, owner, 'member', { overrides: { [key]: !memberDefault } })
    // Permissions are edited on someone else: nobody edits its own.
    const peer = await addMember(t, owner, 'member')
    for (const [member, allowed] of [
      [byDefault, memberDefault],
      [overridden, !memberDefault],
    ] as const) {
      const number = (await createReportIn(t, project)).reportNumber
      const [method, path, body] = request({ project, number, member, peer })
      const res = await t.request(method, path, { token: member.token, body })
      if (allowed) expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
      else expect([res.status, res.body.error]).toEqual([403, `you need the ${key} permission`])
    }
  })
})
