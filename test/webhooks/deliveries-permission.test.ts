import { describe, expect, it } from 'vitest'
import { PERMISSION_KEYS } from '../../src/modules/permissions/permissions.catalog'
import { addMember, createWebhook, webhookTestbed } from './helpers'

const { bed, receiver } = webhookTestbed()
const nothing = Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false]))

describe('GET /webhooks/generic/:webhookId/deliveries needs webhooks.manage', () => {
  it('answers 403 to a member without it, whose payloads would show internal comments; 200 to a manager', async () => {
    const { t, owner, project } = bed
    const r = receiver()
    const id = await createWebhook(t, owner, project, { url: r.url, event_types: 'comment_added' })
    const bugs = `/api/projects/${project.slug}/bugs`
    expect((await t.request('POST', bugs, { token: owner.token, body: { title: 'Dupe glitch', description: 'Items duplicate' } })).status).toBe(201)
    expect((await t.request('POST', `${bugs}/1/comments`, { token: owner.token, body: { body: 'internal: known exploit path', is_internal: true } })).status).toBe(201)
    await t.runner.drain()
    expect(r.received).toHaveLength(1)

    const path = `/api/projects/${project.slug}/webhooks/generic/${id}/deliveries`
    for (const overrides of [nothing, { 'webhooks.manage': false }]) {
      const member = await addMember(t, owner, overrides)
      const res = await t.request('GET', path, { token: member.token })
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ ok: false, error: 'you need the webhooks.manage permission' })
    }
    const manager = await addMember(t, owner, { ...nothing, 'webhooks.manage': true })
    const res = await t.request('GET', path, { token: manager.token })
    expect(res.status).toBe(200)
    expect(JSON.stringify(res.body.data)).toContain('internal: known exploit path')
  })
})
