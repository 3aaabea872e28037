import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { type Call, connect, fileBug, integrationsTestbed, json, setStatus } from './helpers'

const bed = integrationsTestbed()
const PD_KEY = 'R0UT1NGKEY0123456789abcdefABCDEF'
const OG_KEY = 'eb243592-faa2-4ba2-a551-1afdf565c889'
const SENTRY_TOKEN = 'sntrys_eyJpYXQiOjE3MDAwMDAwMDAuMH0_secret'

/** Per provider: how to connect, what it answers when it accepts and when it refuses the credential, and what that refusal reads as. */
interface Case {
  provider: string
  connect: () => Record<string, unknown>
  /** The action a new critical report asks of it. */
  action: string
  accept: (c: Call) => Response
  refuse: () => Response
  refusedStatus: number
  refusedError: string
}

const sentryIssue = { id: '42', shortId: 'SPACE-GAME-1A', title: 'NullReferenceException: Object reference not set', permalink: 'https://acme.sentry.io/issues/42/', metadata: { type: 'NullReferenceException' } }

const cases: Case[] = [
  {
    provider: 'teams',
    connect: () => ({ secret: `${bed.fake.url}/workflows/abc/triggers/manual/paths/invoke?sig=s3cret` }),
    action: 'post',
    accept: () => new Response(null, { status: 202 }),
    refuse: () => json(401, { error: { code: 'DirectApiAuthorizationRequired', message: 'The request needs a valid signature.' } }),
    refusedStatus: 401,
    refusedError: 'Microsoft Teams answered 401: The request needs a valid signature.',
  },
  {
    provider: 'pagerduty',
    connect: () => ({ secret: PD_KEY }),
    action: 'trigger',
    accept: (c) => json(202, { status: 'success', message: 'Event processed', dedup_key: c.json.dedup_key }),
    refuse: () => json(400, { status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid routing key'] }),
    refusedStatus: 400,
    refusedError: 'PagerDuty answered 400: Event object is invalid; Invalid routing key',
  },
  {
    provider: 'opsgenie',
    connect: () => ({ secret: OG_KEY }),
    action: 'trigger',
    accept: () => json(202, { result: 'Request will be processed', took: 0.1, requestId: 'r-1' }),
    refuse: () => json(401, { message: 'Could not authenticate', took: 0.0, requestId: 'r-2' }),
    refusedStatus: 401,
    refusedError: 'Opsgenie answered 401: Could not authenticate',
  },
  {
    provider: 'sentry',
    connect: () => ({ secret: SENTRY_TOKEN, config: { project: 'acme:4505281256090153' } }),
    action: 'link',
    accept: () => json(200, [sentryIssue]),
    refuse: () => json(401, { detail: 'Invalid token' }),
    refusedStatus: 401,
    refusedError: 'Sentry answered 401: Invalid token',
  },
]

/** A critical report every case acts on (Sentry needs its error type, read from the title). */
const crash = () => fileBug(bed, { title: '[Error] NullReferenceException: Object reference not set', priority: 'critical' })

const deliveries = async (provider: string, id: string) => {
  const res = await bed.t.request('GET', `${bed.base}/${provider}/${id}/deliveries`, { token: bed.owner.token })
  expect(res.status).toBe(200)
  return res.body.data as any[]
}

describe.each(cases)('$provider delivery', (c) => {
  it('retries a refused credential after 1, 5, 25 and 125 minutes and records every attempt with the provider\'s answer', async () => {
    const id = await connect(bed, c.provider, c.connect())
    bed.fake.answer = c.refuse
    await crash()
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    for (const [minutes, calls] of [[0.9, 1], [0.2, 2], [4.9, 2], [0.2, 3], [24.8, 3], [0.2, 4], [124.8, 4], [0.2, 5], [1000, 5]] as const) {
      bed.t.clock.advance(minutes * MINUTE)
      await bed.t.runner.drain()
      expect([minutes, bed.fake.calls.length]).toEqual([minutes, calls])
    }
    const [d] = await deliveries(c.provider, id)
    expect(d).toMatchObject({ event: 'bug_created', action: c.action, status: 'failed', attempt_count: 5, last_status_code: c.refusedStatus, last_error: c.refusedError, next_attempt_at: null })
    expect(d.attempts.map((a: { attempt: number; status_code: number; error: string }) => [a.attempt, a.status_code, a.error])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [n, c.refusedStatus, c.refusedError]),
    )
  })

  it('holds the retry of a paused connection and releases it on resume', async () => {
    const id = await connect(bed, c.provider, c.connect())
    bed.fake.answer = c.refuse
    await crash()
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)

    const path = `${bed.base}/${c.provider}/${id}`
    const paused = await bed.t.request('PATCH', path, { token: bed.owner.token, body: { is_active: false } })
    expect(paused.body).toEqual({ ok: true, data: { message: 'Integration paused' } })
    bed.t.clock.advance(300 * MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    const [held] = await deliveries(c.provider, id)
    expect(held).toMatchObject({ status: 'pending', attempt_count: 1 })

    bed.fake.answer = c.accept
    const resumed = await bed.t.request('PATCH', path, { token: bed.owner.token, body: { is_active: true } })
    expect(resumed.body).toEqual({ ok: true, data: { message: 'Integration resumed' } })
    // Released at once: no clock move is needed.
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(2)
    const [d] = await deliveries(c.provider, id)
    expect(d).toMatchObject({ action: c.action, status: 'succeeded', attempt_count: 2, last_error: null })
    expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([c.refusedStatus, c.provider === 'sentry' ? 200 : 202])
  })

  it('/test answers 502 with the provider\'s message when it refuses the credential, recorded as a failed test and not retried', async () => {
    const id = await connect(bed, c.provider, c.connect())
    bed.fake.answer = c.refuse
    const res = await bed.t.request('POST', `${bed.base}/${c.provider}/${id}/test`, { token: bed.owner.token })
    expect(res.status).toBe(502)
    expect(res.body).toEqual({ ok: false, error: c.refusedError })
    const calls = bed.fake.calls.length
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(calls)
    expect(await deliveries(c.provider, id)).toEqual([
      expect.objectContaining({ event: 'test', action: 'test', is_test: true, status: 'failed', attempt_count: 1, last_status_code: c.refusedStatus, last_error: c.refusedError }),
    ])
  })
})

describe.each([
  { provider: 'pagerduty', accept: cases[1]!.accept, resolvePath: '/v2/enqueue' },
  { provider: 'opsgenie', accept: cases[2]!.accept, resolvePath: 'close' },
])('$provider resolve', ({ provider, accept, resolvePath }) => {
  it('is recorded as a delivery of its own, retried with a moved clock when refused', async () => {
    const id = await connect(bed, provider, cases.find((c) => c.provider === provider)!.connect())
    bed.fake.answer = accept
    const bug = await crash()
    await bed.t.runner.drain()
    bed.fake.answer = () => json(503, { message: 'Service unavailable' })
    await setStatus(bed, 1, 'closed')
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(2)
    expect(bed.fake.calls[1]!.path).toContain(resolvePath)
    bed.fake.answer = accept
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(3)
    const list = await deliveries(provider, id)
    expect(list.map((d) => [d.event, d.action, d.status, d.attempt_count, d.report_id])).toEqual([
      ['bug_updated', 'resolve', 'succeeded', 2, bug.id],
      ['bug_created', 'trigger', 'succeeded', 1, bug.id],
    ])
    expect(list[0].attempts.map((a: { status_code: number }) => a.status_code)).toEqual([503, 202])
  })
})

describe('sentry', () => {
  it('links the Sentry issue once a refused lookup succeeds on retry', async () => {
    const id = await connect(bed, 'sentry', cases[3]!.connect())
    bed.fake.answer = cases[3]!.refuse
    await crash()
    await bed.t.runner.drain()
    bed.fake.answer = cases[3]!.accept
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(2)
    const issues = await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/1/issues`, { token: bed.owner.token })
    expect(issues.body.data.links).toMatchObject([{ integration_id: id, provider: 'sentry', external_id: 'SPACE-GAME-1A', url: sentryIssue.permalink }])
  })
})

describe('providers without targets', () => {
  it.each([
    ['slack', 'Slack'],
    ['teams', 'Microsoft Teams'],
    ['pagerduty', 'PagerDuty'],
    ['opsgenie', 'Opsgenie'],
    ['google_play', 'Google Play'],
    ['app_store', 'App Store'],
  ])('%s: targets answers 400, the credential names the destination', async (provider, name) => {
    const res = await bed.t.request('POST', `${bed.base}/${provider}/targets`, { token: bed.owner.token, body: { secret: 'anything-at-all-0123456789' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: `${name} has no targets to pick: the credential names the destination` })
    expect(bed.fake.calls).toEqual([])
  })
})

describe('teams status moves', () => {
  it('posts a status change as an Adaptive Card with the move as a fact and a link to the report', async () => {
    const id = await connect(bed, 'teams', { ...cases[0]!.connect(), event_types: ['bug_updated'] })
    bed.fake.answer = cases[0]!.accept
    await crash()
    await setStatus(bed, 1, 'in_progress')
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    const card = bed.fake.calls[0]!.json.attachments[0].content
    expect(card.body[0].text).toBe(`Bug updated in ${bed.project.name} #1: [Error] NullReferenceException: Object reference not set`)
    expect(card.body[1]).toEqual({ type: 'FactSet', facts: [{ title: 'status', value: 'open → in_progress' }] })
    expect(card.actions).toMatchObject([{ type: 'Action.OpenUrl', url: `http://glitchbox.test/projects/${bed.project.slug}/reports/1` }])
    expect((await deliveries('teams', id)).map((d) => [d.event, d.action, d.status, d.last_status_code])).toEqual([['bug_updated', 'post', 'succeeded', 202]])
  })
})
