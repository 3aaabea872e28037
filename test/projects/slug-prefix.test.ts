import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { slugPrefix } from '../../src/modules/projects/projects.service'
import { createProject, createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const create = async (owner: TestUser, name: string) => {
  const res = await t.request('POST', '/api/projects', { token: owner.token, body: { name } })
  expect(res.status).toBe(201)
  return res.body.data.slug as string
}

describe('project slug prefixes', () => {
  it('differ between creators who signed up the same day, whose ids start alike', async () => {
    const users = [await createUser(t), await createUser(t), await createUser(t)]
    // Time-ordered ids: the first digits are the creation time, the same for all three.
    expect(new Set(users.map((u) => u.user.id.slice(0, 6))).size).toBe(1)
    const slugs = await Promise.all(users.map((u) => create(u, 'Space Game')))
    const prefixes = slugs.map((s) => s.split('-')[0])
    expect(new Set(prefixes).size).toBe(3)
    users.forEach((u, i) => {
      expect(slugs[i]).toBe(`${slugPrefix(u.user.id)}-space-game`)
      expect(prefixes[i]).not.toBe(u.user.id.slice(0, 6))
    })
  })

  it('is stable for one creator, and projects made before keep their slugs', async () => {
    const owner = await createUser(t, { plan: 'studio' })
    const old = await createProject(t, owner, { name: 'Old Game' })
    expect(old.slug.startsWith(owner.user.id.slice(0, 6))).toBe(true)
    expect(await create(owner, 'Space Game')).toBe(`${slugPrefix(owner.user.id)}-space-game`)
    expect(await create(owner, 'Space Game')).toBe(`${slugPrefix(owner.user.id)}-space-game-2`)
    const res = await t.request('GET', `/api/projects/${old.slug}`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data.slug).toBe(old.slug)
  })
})
