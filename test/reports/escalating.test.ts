// Issue 29, "is it getting worse?": per report, events per hour over 24 h and per day over 30 days
// (by event time), the escalating state (its rule documented in report-trend.ts and the README) as a
// search term, a list mark and an alert condition posted to chat, and the list sorted by trending.
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { forgetSdkCallers } from '../../src/http/sdk-callers'
import { HOUR, MINUTE } from '../../src/lib/clock'
import { projects } from '../../src/modules/projects/projects.table'
import { evaluateAlerts } from '../../src/modules/workflow/alerts.jobs'
import { connect, integrationsTestbed } from '../integrations/helpers'
import { post } from '../sentry/routes/sentry-routes-helpers'

const bed = integrationsTestbed({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0', GLITCHBOX_RATE_LIMIT_GLOBAL: '0' } })
const KEY = 'sk_live_trend0key'

/** Sends `n` events of the crash thrown in `fn`, each dated `agoMs` before now (Sentry's `timestamp`). */
async function crashes(fn: string, n: number, agoMs: number) {
  const timestamp = new Date(bed.t.clock.now().getTime() - agoMs).toISOString()
  const event = JSON.stringify({ level: 'fatal', platform: 'csharp', timestamp, exception: { values: [{ type: 'InvalidOperationException', value: `${fn} failed`, stacktrace: { frames: [{ function: fn, filename: 'Game.cs', lineno: 3, in_app: true }] } }] } })
  // Sent side by side, as a crashing player base does; the project's submissions are still filed in turn.
  const sent = await Promise.all(Array.from({ length: n }, () => post(bed.t, `/api/7/store/?sentry_key=${KEY}`, event)))
  expect(sent.map((r) => r.status)).toEqual(sent.map(() => 200))
}
const get = async (path: string) => {
  const res = await bed.t.request('GET', `/api/projects/${bed.project.slug}${path}`, { token: bed.owner.token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}
const list = async (query: string) => (await get(`/bugs?${query}`)) as { bugs: { report_number: number; sparkline: number[] }[]; escalating: number[] }
const numbers = async (query: string) => (await list(query)).bugs.map((b) => b.report_number)

/**
 * #1 steady: 6 events over the day before and 2 in the last hour. #2 growing: 2 the day before, 12 in
 * the last hour. #3 fading: 6 events ten hours ago. #4 quiet: 3 events three days ago.
 */
async function launchDay() {
  await bed.t.deps.db.write((q) => q.update(projects).set({ apiKey: KEY, dsnId: 7 }).where(eq(projects.id, bed.project.id)))
  forgetSdkCallers(bed.t.deps.db)
  for (let h = 4; h <= 24; h += 4) await crashes('Arena.Load', 1, h * HOUR)
  await crashes('Arena.Load', 2, 10 * MINUTE)
  await crashes('Shader.Compile', 2, 20 * HOUR)
  await crashes('Shader.Compile', 12, 5 * MINUTE)
  await crashes('Save.Write', 6, 10 * HOUR)
  await crashes('Menu.Open', 3, 72 * HOUR)
}

describe('a report\'s trend', () => {
  it('counts events per hour over 24 hours and per day over 30 by event time, and says whether it is escalating', async () => {
    await launchDay()
    const growing = await get('/bugs/2/trend')
    expect(growing.hourly.counts).toHaveLength(24)
    expect(growing.hourly.counts.reduce((a: number, b: number) => a + b, 0)).toBe(14)
    expect(growing.daily.counts).toHaveLength(30)
    expect(growing.daily.counts.reduce((a: number, b: number) => a + b, 0)).toBe(14)
    expect(growing).toMatchObject({ last_hour: 12, hourly_average: 0.08, escalating: true })
    expect(growing.rule).toContain('more than 3 times')
    const steady = await get('/bugs/1/trend')
    expect(steady).toMatchObject({ last_hour: 2, hourly_average: 0.25, escalating: false })
    // The quiet report's events are three days old: in the 30 days, not in the 24 hours.
    const quiet = await get('/bugs/4/trend')
    expect([quiet.hourly.counts.every((n: number) => n === 0), quiet.daily.counts.reduce((a: number, b: number) => a + b, 0)]).toEqual([true, 3])
    expect((await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs/9/trend`, { token: bed.owner.token })).status).toBe(404)
  })

  it('finds escalating reports with is:escalating, marks them on the list and sorts the list by trending', async () => {
    await launchDay()
    expect(await numbers(`q=${encodeURIComponent('is:escalating')}`)).toEqual([2])
    expect(await numbers(`q=${encodeURIComponent('is:escalating Arena')}`)).toEqual([])
    expect((await list('')).escalating).toEqual([2])
    expect(await numbers('sort=trending')).toEqual([2, 1, 4, 3])
    // An hour later the growth is the day's history: nothing escalates, and the list says so.
    bed.t.clock.advance(2 * HOUR)
    expect(await numbers(`q=${encodeURIComponent('is:escalating')}`)).toEqual([])
    expect((await list('')).escalating).toEqual([])
  })

  it('draws the list\'s sparklines per day over 14 or 30 days, or per hour over 24 hours', async () => {
    await launchDay()
    const row = async (query: string) => (await list(query)).bugs.find((b) => b.report_number === 2)!.sparkline
    expect(await row('')).toHaveLength(14)
    expect(await row('spark=30d')).toHaveLength(30)
    const hourly = await row('spark=24h')
    expect([hourly.length, hourly.at(-1)! + (hourly.at(-2) ?? 0), hourly.reduce((a, b) => a + b, 0)]).toEqual([24, 12, 14])
    expect((await bed.t.request('GET', `/api/projects/${bed.project.slug}/bugs?spark=7d`, { token: bed.owner.token })).status).toBe(400)
  })
})

describe('the escalating alert condition', () => {
  it('posts the escalating reports to the studio\'s chat when an alert rule on escalating_reports fires', async () => {
    await connect(bed, 'slack', { secret: `${bed.fake.url}/services/T000/B000/secretToken`, event_types: ['digest'] })
    const rule = await bed.t.request('POST', `/api/projects/${bed.project.slug}/alerts`, { token: bed.owner.token, body: { metric: 'escalating_reports', threshold: 1, window_hours: 1 } })
    expect(rule.status).toBe(201)
    expect(await evaluateAlerts(bed.t.deps)).toEqual([])
    await launchDay()
    expect(await evaluateAlerts(bed.t.deps)).toEqual([rule.body.data.id])
    await bed.t.runner.drain()
    expect(bed.fake.calls).toHaveLength(1)
    const body = bed.fake.calls[0]!.json
    expect(body.blocks[0].text.text).toBe(`Alert in ${bed.project.name}`)
    expect(body.blocks[1].text.text).toBe(`In ${bed.project.name}, 1 report is escalating (threshold 1): #2 InvalidOperationException: Shader.Compile failed.`)
    // Once per window: still escalating ten minutes later, it does not post again.
    bed.t.clock.advance(10 * MINUTE)
    expect(await evaluateAlerts(bed.t.deps)).toEqual([])
  })
})
