import { beforeEach, describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { derivedId } from '../../src/lib/ids'
import { FANOUT_KIND, type FanoutPayload } from '../../src/modules/webhooks/webhooks.fanout'
import { createProject, createReportIn, type TestProject, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { createWebhook, runFanouts, webhookJobs, webhookTestbed } from './helpers'
import { sqlRows, sqlRun } from '../helpers/sql-rows'

// The writer's transaction leaves one fan-out job per event; the job writes the per-webhook rows.
const { bed, receiver } = webhookTestbed()
let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(() => {
  t = bed.t
  owner = bed.owner
  project = bed.project
})

const deliveryRows = async () =>
  (await sqlRows(t, 'select id, webhook_id as "webhookId", status, payload from webhook_deliveries order by webhook_id')) as { id: string; webhookId: string; status: string; payload: string }[]
const fanoutPayload = async () => JSON.parse((await webhookJobs(t, FANOUT_KIND))[0]!.payload) as FanoutPayload

describe('in the writer transaction', () => {
  it('writes one fan-out job and no delivery, however many webhooks take the event', async () => {
    for (let i = 0; i < 3; i++) await createWebhook(t, owner, project, { url: receiver().url })
    const report = await createReportIn(t, project, { title: 'Stuck in wall' })
    expect(await webhookJobs(t, FANOUT_KIND)).toHaveLength(1)
    expect(await webhookJobs(t)).toEqual([])
    expect(await deliveryRows()).toEqual([])
    expect(await fanoutPayload()).toMatchObject({ event: 'bug_created', projectId: project.id, at: t.clock.now().getTime(), slug: project.slug, data: { id: report.id, title: 'Stuck in wall' } })
  })

  it('writes no fan-out job when no webhook of the project takes the event type', async () => {
    await createWebhook(t, owner, project, { url: receiver().url, event_types: 'bug_updated' })
    await createReportIn(t, project)
    await createReportIn(t, await createProject(t, owner))
    expect(await webhookJobs(t, FANOUT_KIND)).toEqual([])
  })
})

describe('the fan-out job', () => {
  it('writes one pending delivery and one delivery job per webhook that takes the event, all with the same body', async () => {
    const a = await createWebhook(t, owner, project, { url: receiver().url })
    const b = await createWebhook(t, owner, project, { url: receiver().url, event_types: 'bug_created,comment_added' })
    await createWebhook(t, owner, project, { url: receiver().url, event_types: 'bug_updated' })
    await createReportIn(t, project)
    const { id: eventId } = await fanoutPayload()
    expect(await runFanouts(t)).toBe(1)
    const rows = await deliveryRows()
    expect(rows.map((d) => [d.webhookId, d.id, d.status])).toEqual(
      [a, b].sort().map((w) => [w, derivedId(eventId, w), 'pending']),
    )
    expect(new Set(rows.map((d) => d.payload)).size).toBe(1)
    expect((await webhookJobs(t)).map((j) => JSON.parse(j.payload).deliveryId).sort()).toEqual(rows.map((d) => d.id).sort())
    expect((await webhookJobs(t, FANOUT_KIND)).map((j) => j.status)).toEqual(['done'])
  })

  it('creates no duplicate when it runs again after a crash, before or after the deliveries were sent', async () => {
    const receivers = [receiver(), receiver()]
    for (const r of receivers) await createWebhook(t, owner, project, { url: r.url, secret: 's' })
    await createReportIn(t, project)
    await runFanouts(t)
    const rerun = () => sqlRun(t, "update jobs set status = 'pending', attempts = 0 where kind = ?", FANOUT_KIND)
    await rerun()
    await t.runner.drain()
    await rerun()
    await t.runner.drain()
    expect((await webhookJobs(t, FANOUT_KIND)).map((j) => [j.status, j.attempts])).toEqual([['done', 1]])
    expect((await deliveryRows()).map((d) => d.status)).toEqual(['succeeded', 'succeeded'])
    expect((await webhookJobs(t)).map((j) => j.status)).toEqual(['done', 'done'])
    for (const r of receivers) expect(r.received).toHaveLength(1)
    const sentIds = receivers.map((r) => r.received[0]!.headers.get('x-glitchbox-delivery'))
    expect(sentIds.sort()).toEqual((await deliveryRows()).map((d) => d.id).sort())
  })

  it('sends nothing to a webhook created after the event', async () => {
    const early = receiver()
    const late = receiver()
    await createWebhook(t, owner, project, { url: early.url })
    await createReportIn(t, project)
    t.clock.advance(1000)
    const lateId = await createWebhook(t, owner, project, { url: late.url })
    await t.runner.drain()
    expect(early.received).toHaveLength(1)
    expect(late.received).toHaveLength(0)
    expect((await deliveryRows()).map((d) => d.webhookId)).not.toContain(lateId)
    await createReportIn(t, project)
    await t.runner.drain()
    expect(late.received).toHaveLength(1)
  })

  it('skips a webhook deleted before it runs and still delivers to the others', async () => {
    const kept = receiver()
    const gone = receiver()
    await createWebhook(t, owner, project, { url: kept.url })
    const goneId = await createWebhook(t, owner, project, { url: gone.url })
    await createReportIn(t, project)
    expect((await t.request('DELETE', `/api/projects/${project.slug}/webhooks/generic/${goneId}`, { token: owner.token })).status).toBe(200)
    await t.runner.drain()
    expect(kept.received).toHaveLength(1)
    expect(gone.received).toHaveLength(0)
    expect((await webhookJobs(t, FANOUT_KIND)).map((j) => j.status)).toEqual(['done'])
  })

  it('stamps the body and the delivery with the time of the event, not of the fan-out', async () => {
    const r = receiver()
    const id = await createWebhook(t, owner, project, { url: r.url })
    await createReportIn(t, project)
    const at = t.clock.now().toISOString()
    t.clock.advance(5 * MINUTE)
    await t.runner.drain()
    expect(r.received[0]!.json.timestamp).toBe(at)
    const [d] = (await t.request('GET', `/api/projects/${project.slug}/webhooks/generic/${id}/deliveries`, { token: owner.token })).body.data
    expect(d).toMatchObject({ created_at: at, status: 'succeeded' })
  })
})
