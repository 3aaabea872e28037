import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { connect, fileBug, integrationsTestbed, json, setStatus } from './helpers'

const bed = integrationsTestbed()
const PD_KEY = 'R0UT1NGKEY0123456789abcdefABCDEF'
const OG_KEY = 'eb243592-faa2-4ba2-a551q-1afdf565c889'
const pdAccepted = (dedup: string) => json(202, { status: 'success', message: 'Event processed', dedup_key: dedup })

describe('pagerduty', () => {
  it('triggers an incident per new report at or above min_priority, keyed by the report, and resolves it with the report', async () => {
    await connect(bed, 'pagerduty', { secret: PD_KEY, config: { region: 'eu' } })
    bed.fake.answer = (c) => pdAccepted(c.json.dedup_key)
    const high = await fileBug(bed, { title: 'Save file corrupted', priority: 'critical', category: 'crash' })
    await fileBug(bed, { title: 'Button misaligned', priority: 'medium' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    const trigger = bed.fake.calls[0]!
    expect([trigger.method, trigger.path]).toEqual(['POST', '/v2/enqueue'])
    expect(trigger.headers.get('user-agent')).toBe('Glitchbox/0.0.0-test')
    expect(trigger.json).toMatchObject({
      routing_key: PD_KEY,
      event_action: 'trigger',
      dedup_key: `glitchbox-report-${high.id}`,
      payload: { summary: `[${bed.project.name}] #1 Save file corrupted`, severity: 'critical', source: 'glitchbox.test', component: bed.project.slug, group: 'crash' },
      client: 'Glitchbox',
      client_url: `http://glitchbox.test/projects/${bed.project.slug}/reports/1`,
    })

    await setStatus(bed, 1, 'in_progress')
    await setStatus(bed, 2, 'resolved')
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    await setStatus(bed, 1, 'closed')
    await bed.t.runner.drain()
    expect(bed.fake.calls.map((c) => c.json.event_action)).toEqual(['trigger', 'resolve'])
    expect(bed.fake.calls[1]!.json).toEqual({ routing_key: PD_KEY, event_action: 'resolve', dedup_key: `glitchbox-report-${high.id}` })
  })

  it('retries a trigger PagerDuty rejects with a moved clock and records its answer', async () => {
    const id = await connect(bed, 'pagerduty', { secret: PD_KEY })
    bed.fake.answer = (c) => (bed.fake.calls.length < 3 ? json(429, { status: 'throttle event', message: 'Requests for this service are arriving too quickly. Please retry later.' }) : pdAccepted(c.json.dedup_key))
    await fileBug(bed, { title: 'Crash', priority: 'high' })
    await bed.t.runner.drain()
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    bed.t.clock.advance(4 * MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(2)
    bed.t.clock.advance(MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(3)
    const [d] = (await bed.t.request('GET', `${bed.base}/pagerduty/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ action: 'trigger', status: 'succeeded', attempt_count: 3, last_status_code: 202 })
    expect(d.attempts[0]).toMatchObject({ status_code: 429, error: 'PagerDuty answered 429: Requests for this service are arriving too quickly. Please retry later.' })
  })

  it('/test triggers and resolves a test event; a refused key is a 502 with PagerDuty\'s message', async () => {
    const id = await connect(bed, 'pagerduty', { secret: PD_KEY })
    bed.fake.answer = (c) => pdAccepted(c.json.dedup_key)
    const ok = await bed.t.request('POST', `${bed.base}/pagerduty/${id}/test`, { token: bed.owner.token })
    expect(ok.body).toEqual({ ok: true, data: { message: 'PagerDuty accepted a test event (triggered and resolved)', delivery_id: expect.any(String) } })
    expect(bed.fake.calls.map((c) => [c.json.event_action, c.json.payload?.severity])).toEqual([['trigger', 'info'], ['resolve', undefined]])
    expect(bed.fake.calls[0]!.json.dedup_key).toBe(bed.fake.calls[1]!.json.dedup_key)

    bed.fake.answer = () => json(400, { status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid routing key'] })
    const refused = await bed.t.request('POST', `${bed.base}/pagerduty/${id}/test`, { token: bed.owner.token })
    expect(refused.status).toBe(502)
    expect(refused.body.error).toBe('PagerDuty answered 400: Event object is invalid; Invalid routing key')
  })
})

describe('opsgenie', () => {
  it('creates an alert with the report as alias and closes it by alias when the report is resolved', async () => {
    await connect(bed, 'opsgenie', { secret: OG_KEY, min_priority: 'medium', config: { region: 'eu' } })
    bed.fake.answer = () => json(202, { result: 'Request will be processed', took: 0.1, requestId: 'r-1' })
    const bug = await fileBug(bed, { title: 'Cannot join lobby', priority: 'medium', category: 'network' })
    await bed.t.runner.drain()
    await setStatus(bed, 1, 'resolved')
    await bed.t.runner.drain()
    expect(bed.fake.calls.map((c) => [c.method, c.path])).toEqual([
      ['POST', '/v2/alerts'],
      ['POST', `/v2/alerts/glitchbox-report-${bug.id}/close?identifierType=alias`],
    ])
    for (const c of bed.fake.calls) expect(c.headers.get('authorization')).toBe(`GenieKey ${OG_KEY}`)
    expect(bed.fake.calls[0]!.json).toMatchObject({ message: `[${bed.project.name}] #1 Cannot join lobby`, alias: `glitchbox-report-${bug.id}`, priority: 'P3', source: 'Glitchbox', tags: ['glitchbox', 'network'] })
    expect(bed.fake.calls[0]!.json.description).toContain(`/projects/${bed.project.slug}/reports/1`)
    expect(bed.fake.calls[1]!.json).toEqual({ source: 'Glitchbox', note: 'The report was resolved in Glitchbox' })
  })

  it('answers 502 with Opsgenie\'s message when it refuses the key', async () => {
    const id = await connect(bed, 'opsgenie', { secret: OG_KEY })
    bed.fake.answer = () => json(401, { message: 'Could not authenticate', took: 0.0, requestId: 'r-2' })
    const res = await bed.t.request('POST', `${bed.base}/opsgenie/${id}/test`, { token: bed.owner.token })
    expect(res.status).toBe(502)
    expect(res.body.error).toBe('Opsgenie answered 401: Could not authenticate')
  })
})

describe('regions', () => {
  it('pick each region\'s public base URL unless GLITCHBOX_PROVIDER_URL_<KEY> overrides them all', async () => {
    const { regionBase } = await import('../../src/modules/integrations/providers/provider-http')
    const { loadConfig } = await import('../../src/config/config')
    const urls = { us: 'https://events.pagerduty.com', eu: 'https://events.eu.pagerduty.com' }
    const plain = { deps: { config: loadConfig({}) } } as never
    expect(regionBase(plain, 'pagerduty', urls, 'eu')).toBe('https://events.eu.pagerduty.com')
    expect(regionBase(plain, 'pagerduty', urls, 'us')).toBe('https://events.pagerduty.com')
    const overridden = { deps: { config: loadConfig({ GLITCHBOX_PROVIDER_URL_PAGERDUTY: 'http://127.0.0.1:9999/' }) } } as never
    expect(regionBase(overridden, 'pagerduty', urls, 'eu')).toBe('http://127.0.0.1:9999')
  })
})
