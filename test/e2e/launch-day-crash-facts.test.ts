// Issue 29 items 3 and 4 as found: @sentry/node run by Node against the real server, with the
// project's DSN. A handled error is an error, not a crash; a fatal event and an uncaught error are
// crashes; an event cached offline keeps the day it happened, a clock set ahead never dates one in
// the future, and the time received is kept.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeTempDataDirs, ROOT, startServer, studioOnServer } from '../helpers/server-process'

const DAY = 86_400_000
let server: Awaited<ReturnType<typeof startServer>>
let token = ''
let slug = ''
let ranAt = 0
let finishedAt = 0

const api = async (path: string) => (await (await fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } })).json()).data
type Row = { title: string; report_number: number; level?: string; handled?: boolean; first_seen: string; last_seen: string; category: string }
const rows = async () => (await api(`/projects/${slug}/bugs?sort=newest`)).bugs as Row[]
const row = async (title: string) => (await rows()).find((b) => b.title === title)!

beforeAll(async () => {
  server = await startServer({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
  ;({ token, slug } = await studioOnServer(server.url, { email: 'launch@example.com', password: 'launch-day-1', project: 'Cave Game' }))
  const dsn = (await api(`/projects/${slug}`)).dsn.replace('@localhost:', '@127.0.0.1:')
  ranAt = Date.now()
  const child = Bun.spawn(['node', join(ROOT, 'test', 'e2e', 'clients', 'launch-day-node.mjs')], { cwd: ROOT, env: { ...process.env, SENTRY_DSN: dsn }, stdout: 'pipe', stderr: 'pipe', timeout: 60_000 })
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
  finishedAt = Date.now()
  // Its last step ends the process with an uncaught error.
  expect(code, stderr).toBe(1)
}, 90_000)

afterAll(async () => {
  await server?.stop()
  removeTempDataDirs()
})

describe('@sentry/node on launch day: crashes and errors told apart', () => {
  it('shows each report with its level and whether it was handled', async () => {
    expect(await row('Error: disk quota reached')).toMatchObject({ level: 'error', handled: true, category: 'other' })
    expect(await row('Renderer lost the device')).toMatchObject({ level: 'fatal', category: 'crash' })
    expect(await row('TypeError: inventory is undefined')).toMatchObject({ handled: false, category: 'crash' })
  })

  it('counts crashes (fatal, unhandled) and handled errors apart in the crash analytics', async () => {
    const totals = (await api(`/projects/${slug}/crash-analytics?days=30`)).totals
    expect(totals).toMatchObject({ crash_events: 5, crashes: 2, errors: 3 })
    const daily = (await api('/analytics/dashboard')).daily as { crash_events: number; crashes: number }[]
    expect(daily.reduce((n, d) => n + d.crashes, 0)).toBe(2)
  })
})

describe('@sentry/node on launch day: the time an event happened', () => {
  it('dates an event cached offline by its own time, and keeps the time it was received', async () => {
    const offline = await row('RangeError: offline save failure')
    const sent = ranAt - 2 * DAY
    expect(Date.parse(offline.first_seen)).toBeGreaterThanOrEqual(sent - 60_000)
    expect(Date.parse(offline.first_seen)).toBeLessThanOrEqual(finishedAt - 2 * DAY + 60_000)
    expect(offline.last_seen).toBe(offline.first_seen)
    const [occurrence] = (await api(`/projects/${slug}/bugs/${offline.report_number}/occurrences`)).occurrences
    expect(occurrence.created_at).toBe(offline.first_seen)
    expect(Date.parse(occurrence.received_at)).toBeGreaterThanOrEqual(ranAt)
    // Its day's trend holds it, not today's.
    const daily = (await api(`/projects/${slug}/crash-analytics?days=30`)).daily as { day: string; crash_events: number }[]
    expect(daily.find((d) => d.day === offline.first_seen.slice(0, 10))!.crash_events).toBe(1)
  })

  it('never dates an event in the future: a clock set a day ahead reads as received', async () => {
    const ahead = await row('RangeError: clock ahead failure')
    expect(Date.parse(ahead.first_seen)).toBeGreaterThanOrEqual(ranAt)
    expect(Date.parse(ahead.first_seen)).toBeLessThanOrEqual(finishedAt)
  })
})
