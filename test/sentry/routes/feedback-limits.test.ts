// Issue 28, finding 3: an envelope with a thousand feedback items filed a thousand reports and
// counted as one SDK request. Now an envelope carries at most 3 feedback items (Sentry's SDKs send
// one), and each report it files counts against the SDK budget.
import { afterEach, describe, expect, it } from 'vitest'
import { ENVELOPE_LIMITS } from '../../../src/modules/sentry/protocol'
import { createTestApp, type TestApp } from '../../helpers/test-app'
import { sqlRows } from '../../helpers/sql-rows'
import { CAPTURE_KEY, capturedProject, post } from './sentry-routes-helpers'

let t: TestApp
afterEach(() => t.close())

/** An envelope of `n` feedback items (alternating the two item types Sentry's SDKs use). */
const feedbackEnvelope = (n: number) =>
  ['{}', ...Array.from({ length: n }, (_, i) => (i % 2 ? ['{"type":"user_report"}', JSON.stringify({ event_id: 'c'.repeat(32), name: 'P', comments: `It broke ${i}` })] : ['{"type":"feedback"}', JSON.stringify({ contexts: { feedback: { message: `It broke ${i}` } } })])).flat()].join('\n')
const send = (n: number, ip = '203.0.113.20') => post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, feedbackEnvelope(n), { 'x-forwarded-for': ip })
/** Reports filed or stacked: one occurrence each (the same words twice stack onto one report). */
const reportCount = async () => (await sqlRows(t, 'SELECT count(*) AS n FROM report_occurrences'))[0]!.n

describe('feedback items per envelope', () => {
  it.each([4, 1000])('refuses an envelope of %s feedback items with 413 and files nothing', async (n) => {
    t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
    await capturedProject(t)
    const res = await send(n)
    expect([res.status, res.json]).toEqual([413, { detail: `envelope has more than ${ENVELOPE_LIMITS.maxFeedbackItems} feedback items` }])
    expect(await reportCount()).toBe(0)
  })

  it('files up to 3 of them', async () => {
    t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
    await capturedProject(t)
    expect((await send(3)).status).toBe(200)
    expect(await reportCount()).toBe(3)
  })
})

describe('the SDK budget counts reports, not requests', () => {
  it('refuses the envelope whose reports go past the budget, with the Sentry 429, and files none of them', async () => {
    t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '5' } })
    await capturedProject(t)
    // 3 reports: the request and two more counted, 3 of 5.
    expect((await send(3)).status).toBe(200)
    // 3 more would make 6.
    const refused = await send(3)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(refused.headers.get('x-sentry-rate-limits')).toMatch(/^\d+::organization$/)
    expect(await reportCount()).toBe(3)
    // Another address has its own budget.
    expect((await send(3, '203.0.113.21')).status).toBe(200)
    expect(await reportCount()).toBe(6)
  })

  it('counts an ordinary envelope (one event or one feedback) once', async () => {
    t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '5' } })
    await capturedProject(t)
    for (let i = 0; i < 5; i++) expect((await send(1)).status).toBe(200)
    expect((await send(1)).status).toBe(429)
    expect(await reportCount()).toBe(5)
  })
})
