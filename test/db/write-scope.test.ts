// Lookups asked once per write (src/db/write-scope.ts): a bulk change emits one event per report in
// one write, and the subscribers' questions about the project's settings are asked once for all of
// them; a later write, or a read outside any write, asks again and sees what changed. Both engines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { oncePerWrite } from '../../src/db/write-scope'
import { anyWebhookTakes } from '../../src/modules/webhooks/webhooks.repository'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { createWebhook } from '../webhooks/helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => t.close())

/** A lookup that counts how often it is asked. */
function counted<T>(answer: T) {
  const lookup = async () => {
    lookup.asked++
    return answer
  }
  lookup.asked = 0
  return lookup
}

describe('oncePerWrite', () => {
  it('asks once inside one write, however often and however concurrently the question comes', async () => {
    const lookup = counted(42)
    const answers = await t.deps.db.write(async (q) => [
      ...(await Promise.all([1, 2, 3].map(() => oncePerWrite(q, 'k', lookup)))),
      await oncePerWrite(q, 'k', lookup),
      await t.deps.db.write((inner) => oncePerWrite(inner, 'k', lookup)),
    ])
    expect(answers).toEqual([42, 42, 42, 42, 42])
    expect(lookup.asked).toBe(1)
  })

  it('asks again in the next write, and for another key', async () => {
    const lookup = counted('x')
    await t.deps.db.write((q) => oncePerWrite(q, 'k', lookup))
    await t.deps.db.write(async (q) => {
      await oncePerWrite(q, 'k', lookup)
      await oncePerWrite(q, 'other', lookup)
    })
    expect(lookup.asked).toBe(3)
  })

  it('keeps nothing outside a write', async () => {
    const lookup = counted(true)
    await oncePerWrite(t.deps.db, 'k', lookup)
    await t.deps.db.read((q) => oncePerWrite(q, 'k', lookup))
    await oncePerWrite(t.deps.db, 'k', lookup)
    expect(lookup.asked).toBe(3)
  })

  it('asks again after a lookup failed', async () => {
    let asked = 0
    const flaky = async () => {
      if (++asked === 1) throw new Error('connection reset')
      return 'ok'
    }
    const answer = await t.deps.db.write(async (q) => {
      await expect(oncePerWrite(q, 'k', flaky)).rejects.toThrow('connection reset')
      return oncePerWrite(q, 'k', flaky)
    })
    expect(answer).toBe('ok')
    expect(asked).toBe(2)
  })
})

describe("the event subscribers' lookups", () => {
  it('see a webhook created after an earlier write asked', async () => {
    expect(await t.deps.db.write((q) => anyWebhookTakes(q, project.id, 'bug_updated'))).toBe(false)
    await createWebhook(t, owner, project, { url: 'http://127.0.0.1:9/hook', event_types: 'bug_updated' })
    expect(await t.deps.db.write((q) => anyWebhookTakes(q, project.id, 'bug_updated'))).toBe(true)
    expect(await t.deps.db.write((q) => anyWebhookTakes(q, project.id, 'comment_added'))).toBe(false)
  })
})
