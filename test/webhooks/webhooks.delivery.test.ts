import { beforeEach, describe, expect, it } from 'vitest'
import type { DomainEvent } from '../../src/events/domain-events'
import { hmacSha256Hex } from '../../src/lib/ids'
import { MINUTE } from '../../src/lib/clock'
import { createProject, createReportIn, type TestProject, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { createWebhook, runFanouts, webhookJobs, webhookTestbed } from './helpers'
import { closedPortUrl } from './receiver'
import { sqlRows } from '../helpers/sql-rows'

const { bed, receiver } = webhookTestbed()
let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(() => {
  t = bed.t
  owner = bed.owner
  project = bed.project
})

const deliveries = async (id: string) => (await t.request('GET', `/api/projects/${project.slug}/webhooks/generic/${id}/deliveries`, { token: owner.token })).body.data

async function emit(event: Partial<DomainEvent> & Pick<DomainEvent, 'type' | 'reportId'>) {
  await t.deps.db.write((tx) => t.deps.events.emit(tx, { projectId: project.id, actorId: owner.user.id, data: { id: event.reportId }, ...event }))
}

describe('delivery', () => {
  it('POSTs {event, timestamp, data} with event, delivery, signature, type and agent headers', async () => {
    const r = receiver()
    await createWebhook(t, owner, project, { url: r.url, secret: 'whsec_test' })
    const report = await createReportIn(t, project, { title: 'Crash on load' })
    await t.runner.drain()
    expect(r.received).toHaveLength(1)
    const [got] = r.received
    expect(got!.json).toEqual({
      event: 'bug_created',
      timestamp: t.clock.now().toISOString(),
      data: expect.objectContaining({ id: report.id, report_number: 1, title: 'Crash on load', status: 'open', project_slug: project.slug }),
    })
    expect(got!.headers.get('x-glitchbox-event')).toBe('bug_created')
    expect(got!.headers.get('x-glitchbox-delivery')).toMatch(/^[0-9a-f-]{36}$/)
    expect(got!.headers.get('x-glitchbox-signature')).toBe(`sha256=${hmacSha256Hex('whsec_test', got!.body)}`)
    expect(got!.headers.get('content-type')).toBe('application/json')
    expect(got!.headers.get('user-agent')).toBe('Glitchbox/0.0.0-test')
  })

  it('sends no signature header when the webhook has no secret', async () => {
    const r = receiver()
    await createWebhook(t, owner, project, { url: r.url })
    await createReportIn(t, project)
    await t.runner.drain()
    expect(r.received).toHaveLength(1)
    expect(r.received[0]!.headers.has('x-glitchbox-signature')).toBe(false)
  })

  it('sends each webhook only the event types it subscribed to', async () => {
    const all = receiver()
    const updates = receiver()
    const comments = receiver()
    await createWebhook(t, owner, project, { url: all.url })
    await createWebhook(t, owner, project, { url: updates.url, event_types: 'bug_updated' })
    await createWebhook(t, owner, project, { url: comments.url, event_types: 'comment_added,bug_created' })
    const report = await createReportIn(t, project)
    await emit({ type: 'bug_updated', reportId: report.id, changes: { status: ['open', 'resolved'] } })
    await emit({ type: 'comment_added', reportId: report.id, data: { id: 'c1', body: 'Seen it too', report: { id: report.id } } })
    await t.runner.drain()
    const events = (r: ReturnType<typeof receiver>) => r.received.map((x) => x.json.event).sort()
    expect(events(all)).toEqual(['bug_created', 'bug_updated', 'comment_added'])
    expect(events(updates)).toEqual(['bug_updated'])
    expect(events(comments)).toEqual(['bug_created', 'comment_added'])
    expect(comments.received.find((x) => x.json.event === 'comment_added')!.json.data).toEqual({ id: 'c1', body: 'Seen it too', report: { id: report.id }, project_slug: project.slug })
  })

  it('sends nothing for events of other projects', async () => {
    const r = receiver()
    await createWebhook(t, owner, project, { url: r.url })
    await createReportIn(t, await createProject(t, owner))
    await t.runner.drain()
    expect(r.received).toHaveLength(0)
  })

  it('writes no fan-out job and no delivery when the causing transaction rolls back', async () => {
    const r = receiver()
    await createWebhook(t, owner, project, { url: r.url })
    await expect(
      t.deps.db.write(async (tx) => {
        await t.deps.events.emit(tx, { type: 'bug_updated', projectId: project.id, reportId: 'r1', actorId: null, data: {} })
        throw new Error('change failed')
      }),
    ).rejects.toThrow('change failed')
    expect((await sqlRows(t, "select count(*) as n from jobs where kind like 'webhook.%'"))[0]).toEqual({ n: 0 })
    expect((await sqlRows(t, 'select count(*) as n from webhook_deliveries'))[0]).toEqual({ n: 0 })
    await t.runner.drain()
    expect(r.received).toHaveLength(0)
  })

  it('counts a 3xx as success and does not follow the redirect', async () => {
    const target = receiver()
    const r = receiver(() => new Response(null, { status: 302, headers: { location: target.url } }))
    const id = await createWebhook(t, owner, project, { url: r.url })
    await createReportIn(t, project)
    await t.runner.drain()
    expect(r.received).toHaveLength(1)
    expect(target.received).toHaveLength(0)
    expect((await deliveries(id))[0]).toMatchObject({ status: 'succeeded', last_status_code: 302 })
  })
})

describe('retries', () => {
  it('retries after 1, 5, 25 and 125 minutes, 5 attempts in all, with the same id, bytes and signature', async () => {
    const r = receiver(() => new Response('upstream down', { status: 503 }))
    const id = await createWebhook(t, owner, project, { url: r.url, secret: 'k' })
    await createReportIn(t, project)
    await t.runner.drain()
    expect(r.received).toHaveLength(1)
    const first = (await deliveries(id))[0]
    expect(first).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: 503, last_error: 'receiver answered 503' })
    expect(new Date(first.next_attempt_at).getTime() - t.clock.now().getTime()).toBe(MINUTE)

    for (const [delay, expected] of [
      [1, 2],
      [5, 3],
      [25, 4],
      [125, 5],
    ] as const) {
      t.clock.advance(delay * MINUTE - 1000)
      await t.runner.drain()
      expect(r.received, `not before ${delay} min`).toHaveLength(expected - 1)
      t.clock.advance(1000)
      await t.runner.drain()
      expect(r.received, `after ${delay} min`).toHaveLength(expected)
    }
    t.clock.advance(24 * 60 * MINUTE)
    await t.runner.drain()
    expect(r.received).toHaveLength(5)

    const ids = new Set(r.received.map((x) => x.headers.get('x-glitchbox-delivery')))
    expect(ids.size).toBe(1)
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1)
    expect(new Set(r.received.map((x) => x.headers.get('x-glitchbox-signature'))).size).toBe(1)

    const [d] = await deliveries(id)
    expect(d).toMatchObject({ id: [...ids][0], event: 'bug_created', status: 'failed', attempt_count: 5, last_status_code: 503, next_attempt_at: null })
    expect(d.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4, 5])
    for (const a of d.attempts) {
      expect(a).toMatchObject({ status_code: 503, error: 'receiver answered 503', response_snippet: 'upstream down', duration_ms: expect.any(Number) })
    }
    expect((await webhookJobs(t)).map((j) => j.status)).toEqual(['failed'])
  })

  it('stops retrying once the receiver recovers', async () => {
    const r = receiver((_req, n) => new Response(n < 3 ? 'no' : 'thanks', { status: n < 3 ? 500 : 200 }))
    const id = await createWebhook(t, owner, project, { url: r.url })
    await createReportIn(t, project)
    await t.runner.drain()
    t.clock.advance(MINUTE)
    await t.runner.drain()
    t.clock.advance(5 * MINUTE)
    await t.runner.drain()
    t.clock.advance(200 * MINUTE)
    await t.runner.drain()
    expect(r.received).toHaveLength(3)
    const [d] = await deliveries(id)
    expect(d).toMatchObject({ status: 'succeeded', attempt_count: 3, last_status_code: 200, last_error: null, next_attempt_at: null })
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 200])
    expect(d.attempts[2].response_snippet).toBe('thanks')
  })

  it('records a refused connection as an attempt without a status code', async () => {
    const id = await createWebhook(t, owner, project, { url: closedPortUrl() })
    await createReportIn(t, project)
    await t.runner.drain()
    const [d] = await deliveries(id)
    expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: null })
    expect(d.attempts[0]).toMatchObject({ attempt: 1, status_code: null, error: expect.any(String) })
    expect(d.attempts[0].error.length).toBeGreaterThan(0)
  })

  it('keeps only the first 500 characters of an answer', async () => {
    const r = receiver(() => new Response('x'.repeat(5000), { status: 500 }))
    const id = await createWebhook(t, owner, project, { url: r.url })
    await createReportIn(t, project)
    await t.runner.drain()
    expect((await deliveries(id))[0].attempts[0].response_snippet).toBe('x'.repeat(500))
  })

  it('drops queued retries of a deleted webhook', async () => {
    const r = receiver(() => new Response('', { status: 500 }))
    const id = await createWebhook(t, owner, project, { url: r.url })
    await createReportIn(t, project)
    await t.runner.drain()
    await t.request('DELETE', `/api/projects/${project.slug}/webhooks/generic/${id}`, { token: owner.token })
    t.clock.advance(MINUTE)
    await t.runner.drain()
    expect(r.received).toHaveLength(1)
    expect((await webhookJobs(t)).map((j) => j.status)).toEqual(['done'])
  })
})

describe('GET /webhooks/generic/:webhookId/deliveries', () => {
  it('lists the 50 most recent deliveries, newest first', async () => {
    const r = receiver()
    const id = await createWebhook(t, owner, project, { url: r.url, event_types: 'bug_updated' })
    for (let i = 1; i <= 55; i++) {
      await emit({ type: 'bug_updated', reportId: `r${i}`, data: { n: i } })
      t.clock.advance(1000)
    }
    await runFanouts(t)
    const list = await deliveries(id)
    expect(list).toHaveLength(50)
    expect(list.map((d: { payload: { data: { n: number } } }) => d.payload.data.n)).toEqual(Array.from({ length: 50 }, (_, i) => 55 - i))
    expect(list[0]).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] })
  })
})

describe('concurrency and timeouts', () => {
  it('gives up on a hung receiver after 10 s without holding up other deliveries', { timeout: 30_000 }, async () => {
    const hung = receiver(() => new Promise<Response>(() => {}))
    const fast = receiver()
    const hungId = await createWebhook(t, owner, project, { url: hung.url })
    await createWebhook(t, owner, project, { url: fast.url })
    await createReportIn(t, project)
    const started = performance.now()
    let fastAt = 0
    const watcher = setInterval(() => {
      if (!fastAt && fast.received.length) fastAt = performance.now() - started
    }, 20)
    await t.runner.drain()
    clearInterval(watcher)
    const elapsed = performance.now() - started
    expect(fast.received).toHaveLength(1)
    // The fast receiver is served at once, not after the hung one's 10 s; the bounds leave a busy machine room.
    expect(fastAt).toBeLessThan(5000)
    expect(elapsed).toBeGreaterThan(9_500)
    expect(elapsed).toBeLessThan(16_000)
    const [d] = await deliveries(hungId)
    expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_error: 'no answer within 10 s' })
  })

  it('drains a backlog with the running server loop faster than one poll per second', { timeout: 20_000 }, async () => {
    const r = receiver()
    await createWebhook(t, owner, project, { url: r.url })
    for (let i = 0; i < 40; i++) await createReportIn(t, project)
    const started = performance.now()
    t.runner.start()
    try {
      while (r.received.length < 40 && performance.now() - started < 15_000) await Bun.sleep(20)
    } finally {
      await t.runner.stop()
    }
    expect(r.received).toHaveLength(40)
    // 120 jobs (40 webhook fan-outs, 40 deliveries, 40 mail fan-outs) at 8 per poll would take 15 s;
    // the loop takes about 1 s, and the bound leaves room for a busy machine.
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
