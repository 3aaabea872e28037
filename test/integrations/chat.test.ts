import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../src/lib/clock'
import { enqueueDigests } from '../../src/modules/integrations/integrations.digest'
import { connect, fileBug, integrationsTestbed, json, setStatus } from './helpers'

const bed = integrationsTestbed()
const hook = () => `${bed.fake.url}/services/T000/B000/secretToken`
const link = (n: number) => `http://glitchbox.test/projects/${bed.project.slug}/reports/${n}`

describe('slack', () => {
  it('posts each subscribed event at or above min_priority as Block Kit with a link to the report', async () => {
    await connect(bed, 'slack', { secret: hook(), event_types: ['bug_created', 'bug_updated', 'comment_added'], min_priority: 'medium' })
    await fileBug(bed, { title: 'Falls through the floor', priority: 'high', category: 'gameplay', platform: 'PC' })
    await fileBug(bed, { title: 'Slightly wrong tint', priority: 'low' })
    await setStatus(bed, 1, 'in_progress')
    await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs/1/comments`, { token: bed.owner.token, body: { body: 'Repro on level 3 <b>', is_internal: true } })
    await bed.t.runner.drain()

    expect(bed.fake.calls.map((c) => [c.method, c.path])).toEqual([
      ['POST', '/services/T000/B000/secretToken'],
      ['POST', '/services/T000/B000/secretToken'],
      ['POST', '/services/T000/B000/secretToken'],
    ])
    // Jobs run side by side, so the posts may arrive in any order.
    const byTitle = (start: string) => bed.fake.calls.map((c) => c.json).find((j) => j.blocks[0].text.text.startsWith(start))
    const [created, updated, commented] = [byTitle('New bug'), byTitle('Bug updated'), byTitle('New internal comment')]
    expect(bed.fake.calls[0]!.headers.get('user-agent')).toBe('Glitchbox/0.0.0-test')
    expect(bed.fake.calls[0]!.headers.get('content-type')).toBe('application/json')
    expect(created.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: `New bug in ${bed.project.name} #1: Falls through the floor`, emoji: false } })
    expect(created.blocks[1].fields).toContainEqual({ type: 'mrkdwn', text: '*Priority*\nhigh' })
    expect(created.blocks.at(-1)).toEqual({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open report #1' }, url: link(1) }] })
    expect(created.text).toContain(link(1))
    expect(updated.blocks[1].fields).toContainEqual({ type: 'mrkdwn', text: '*status*\nopen → in_progress' })
    expect(commented.blocks[2].text.text).toBe('Repro on level 3 &lt;b&gt;')
  })

  it('retries a refused post after 1, 5, 25 and 125 minutes, recording every attempt with the answer', async () => {
    const id = await connect(bed, 'slack', { secret: hook() })
    bed.fake.answer = () => new Response('no_service', { status: 404 })
    await fileBug(bed, { title: 'Crash on boot', priority: 'critical' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    for (const [minutes, calls] of [[0.9, 1], [0.2, 2], [4.9, 2], [0.2, 3], [25, 4], [125, 5], [1000, 5]] as const) {
      bed.t.clock.advance(minutes * MINUTE)
      await bed.t.runner.drain()
      expect(bed.fake.calls).toHaveLength(calls)
    }
    const res = await bed.t.request('GET', `${bed.base}/slack/${id}/deliveries`, { token: bed.owner.token })
    expect(res.status).toBe(200)
    const [d] = res.body.data
    expect(d).toMatchObject({ event: 'bug_created', action: 'post', status: 'failed', attempt_count: 5, last_status_code: 404, response: 'no_service', last_error: 'Slack answered 404: no_service' })
    expect(d.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([[1, 404], [2, 404], [3, 404], [4, 404], [5, 404]])
    expect(JSON.stringify(res.body)).not.toContain('secretToken')
  })

  it('holds the retries of a paused connection and releases them on resume', async () => {
    const id = await connect(bed, 'slack', { secret: hook() })
    bed.fake.answer = () => new Response('internal_error', { status: 500 })
    await fileBug(bed, { title: 'Crash on boot', priority: 'critical' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)

    const path = `${bed.base}/slack/${id}`
    expect((await bed.t.request('PATCH', path, { token: bed.owner.token, body: { is_active: false } })).status).toBe(200)
    bed.t.clock.advance(200 * MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    // New events while paused are not queued.
    await fileBug(bed, { title: 'Second crash', priority: 'critical' })
    bed.t.clock.advance(200 * MINUTE)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)

    bed.fake.answer = () => new Response('ok')
    expect((await bed.t.request('PATCH', path, { token: bed.owner.token, body: { is_active: true } })).status).toBe(200)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(2)
    const [d] = (await bed.t.request('GET', `${path}/deliveries`, { token: bed.owner.token })).body.data
    expect(d).toMatchObject({ status: 'succeeded', attempt_count: 2, response: 'ok' })
  })

  it('/test posts a test message, and answers 502 with Slack\'s words when it refuses', async () => {
    const id = await connect(bed, 'slack', { secret: hook() })
    const ok = await bed.t.request('POST', `${bed.base}/slack/${id}/test`, { token: bed.owner.token })
    expect(ok.status).toBe(200)
    expect(ok.body.data.message).toBe('Test message posted to Slack')
    expect(bed.fake.calls[0]!.json.blocks[0].text.text).toContain('Test message from Glitchbox')

    bed.fake.answer = () => new Response('invalid_token', { status: 403 })
    const refused = await bed.t.request('POST', `${bed.base}/slack/${id}/test`, { token: bed.owner.token })
    expect(refused.status).toBe(502)
    expect(refused.body).toEqual({ ok: false, error: 'Slack answered 403: invalid_token' })
    // Both tests are in the deliveries list, marked as tests, and neither is retried.
    await bed.t.runner.drain()
    const listed = (await bed.t.request('GET', `${bed.base}/slack/${id}/deliveries`, { token: bed.owner.token })).body.data
    expect(listed.map((d: Record<string, unknown>) => [d.event, d.action, d.is_test, d.status, d.attempt_count, d.last_status_code, d.last_error])).toEqual([
      ['test', 'test', true, 'failed', 1, 403, 'Slack answered 403: invalid_token'],
      ['test', 'test', true, 'succeeded', 1, null, null],
    ])
    expect(listed[1].id).toBe(ok.body.data.delivery_id)
    expect(bed.fake.calls).toHaveLength(2)
  })

  it('posts the daily digest once per day to connections subscribed to it', async () => {
    await connect(bed, 'slack', { secret: hook(), event_types: ['digest'] })
    await connect(bed, 'slack', { secret: `${hook()}-other`, event_types: ['bug_created'] })
    await fileBug(bed, { title: 'Boss is invincible', priority: 'critical' })
    await fileBug(bed, { title: 'Typo in menu', priority: 'low' })
    await bed.t.runner.drain()
    bed.fake.calls.length = 0
    await enqueueDigests(bed.t.deps)
    await enqueueDigests(bed.t.deps)
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    const body = bed.fake.calls[0]!.json
    expect(body.blocks[0].text.text).toBe(`Daily digest for ${bed.project.name}`)
    expect(body.blocks[1].text.text).toContain('2 new reports in the last 24 hours')
    expect(body.blocks[1].text.text).toContain('#1 [critical] Boss is invincible')
  })
})

describe('teams', () => {
  it('accepts only workflow-webhook hosts (or the configured Teams URL) and posts an Adaptive Card', async () => {
    for (const url of ['https://prod-12.westus.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=x', 'https://default123.15.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/abc']) {
      const res = await bed.t.request('POST', `${bed.base}/teams`, { token: bed.owner.token, body: { secret: url } })
      // Those hosts are real: the connection is created without calling them.
      expect([url, res.status]).toEqual([url, 201])
    }
    for (const url of ['http://prod-12.westus.logic.azure.com/workflows/abc', 'https://logic.azure.com.evil.example/x', 'https://outlook.office.com/webhook/x']) {
      const res = await bed.t.request('POST', `${bed.base}/teams`, { token: bed.owner.token, body: { secret: url } })
      expect([url, res.status]).toEqual([url, 400])
    }
    const id = await connect(bed, 'teams', { secret: `${bed.fake.url}/workflows/abc/triggers/manual/paths/invoke?sig=s3cret` })
    bed.fake.answer = () => new Response(null, { status: 202 })
    await fileBug(bed, { title: 'Audio cuts out', priority: 'high' })
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    const call = bed.fake.calls[0]!
    expect(call.path).toBe('/workflows/abc/triggers/manual/paths/invoke?sig=s3cret')
    expect(call.json.type).toBe('message')
    const att = call.json.attachments[0]
    expect(att.contentType).toBe('application/vnd.microsoft.card.adaptive')
    expect(att.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4', actions: [{ type: 'Action.OpenUrl', url: link(1) }] })
    expect(att.content.body[0].text).toContain('Audio cuts out')

    bed.fake.answer = () => json(401, { error: { code: 'DirectApiAuthorizationRequired', message: 'The request needs a valid signature.' } })
    const refused = await bed.t.request('POST', `${bed.base}/teams/${id}/test`, { token: bed.owner.token })
    expect(refused.status).toBe(502)
    expect(refused.body.error).toBe('Microsoft Teams answered 401: The request needs a valid signature.')
  })
})

describe('workflow alert firings', () => {
  it('are posted to the project\'s active chat connections, not to alerting ones', async () => {
    const { evaluateAlerts } = await import('../../src/modules/workflow/alerts.jobs')
    await connect(bed, 'slack', { secret: hook(), event_types: ['digest'] })
    const paused = await connect(bed, 'slack', { secret: `${hook()}-paused` })
    await bed.t.request('PATCH', `${bed.base}/slack/${paused}`, { token: bed.owner.token, body: { is_active: false } })
    await connect(bed, 'pagerduty', { secret: 'R0UT1NGKEY0123456789abcdefABCDEF', event_types: ['bug_updated'] })
    const rule = await bed.t.request('POST', `/api/projects/${bed.project.slug}/alerts`, { token: bed.owner.token, body: { metric: 'new_reports', threshold: 2, window_hours: 1 } })
    expect(rule.status).toBe(201)
    await fileBug(bed, { title: 'One', priority: 'low' })
    await fileBug(bed, { title: 'Two', priority: 'low' })
    expect(await evaluateAlerts(bed.t.deps)).toEqual([rule.body.data.id])
    await bed.t.runner.drain()
    expect(bed.fake.calls.map((c) => c.path)).toEqual(['/services/T000/B000/secretToken'])
    const body = bed.fake.calls[0]!.json
    expect(body.blocks[0].text.text).toBe(`Alert in ${bed.project.name}`)
    expect(body.blocks[1].text.text).toBe(`In ${bed.project.name}, new reports reached 2 in the last 1 h (threshold 2).`)
  })
})
