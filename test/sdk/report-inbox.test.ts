import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { DomainEvent } from '../../src/events/domain-events'
import { fileQueued, queuedReports, queueReport, startInboxFiling } from '../../src/modules/sdk/report-inbox'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { b64, rows, sdkProject } from './sdk-helpers'

let t: TestApp
let behind: boolean
let events: DomainEvent[]
beforeEach(() => {
  t = createTestApp()
  behind = true
  // What `serve` wires to the job thread's lag measurement.
  t.deps.requestsBehind = () => behind
  events = []
  t.deps.events.subscribe((_tx, e) => void events.push(e))
})
afterEach(() => t.close())

const bug = (title: string, o: Record<string, unknown> = {}) => ({ title, description: 'The sky turns green after the boss.', platform: 'Windows', ...o })
const reportCount = () => rows(t, 'SELECT count(*) AS n FROM reports')[0]!.n
const inboxCount = () => rows(t, 'SELECT count(*) AS n FROM report_inbox')[0]!.n

describe('the SDK inbox (requests behind)', () => {
  it('answers a new report at once from a reservation, and files the same report later', async () => {
    const { key, project } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug('Sky turns green', { category: 'visual', priority: 'high' }) })
    expect(res.status).toBe(201)
    const answer = res.body.data
    expect(answer).toMatchObject({ report_number: 1, message: 'Bug report submitted', category: 'visual', priority: 'high', possible_duplicates: [] })
    // Reserved and durable, not yet a report: quota charged, number taken, submission in the inbox.
    expect(reportCount()).toBe(0)
    expect(inboxCount()).toBe(1)
    expect(rows(t, 'SELECT reports_created FROM accounts')[0]!.reports_created).toBe(1)
    expect(rows(t, 'SELECT last_report_number FROM projects WHERE id = ?', project.id)[0]!.last_report_number).toBe(1)
    expect(events).toEqual([])

    const submittedAt = t.clock.now().getTime()
    t.clock.advance(5000)
    expect(fileQueued(t.deps, 10)).toBe(1)
    expect(inboxCount()).toBe(0)
    expect(rows(t, 'SELECT id, report_number, title, category, priority, platform, sentiment_level, created_at FROM reports')).toEqual([
      { id: answer.id, report_number: 1, title: 'Sky turns green', category: 'visual', priority: 'high', platform: 'Windows', sentiment_level: answer.sentiment_level, created_at: submittedAt },
    ])
    expect(rows(t, "SELECT count(*) AS n FROM activity WHERE action = 'created'")[0]!.n).toBe(1)
    expect(events.map((e) => [e.type, e.reportId])).toEqual([['bug_created', answer.id]])
    // Searchable and a duplicate candidate once filed.
    const again = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug('Green sky again') })
    expect(again.body.data.possible_duplicates).toEqual([1])
  })

  it('queues when many submits arrive together, even while the event loop keeps time', async () => {
    behind = false
    const { key } = await sdkProject(t)
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => t.request('POST', '/api/bugs/submit', { apiKey: key, ip: `198.51.100.${i}`, body: bug(`Crowd ${i}`) })),
    )
    expect(answers.every((a) => a.status === 201)).toBe(true)
    expect(new Set(answers.map((a) => a.body.data.report_number)).size).toBe(24)
    // Decided per commit group: the first submits of the burst are queued like the rest.
    expect(inboxCount()).toBe(24)
    expect(reportCount()).toBe(0)
    fileQueued(t.deps, 100)
    expect(reportCount()).toBe(24)
  })

  it('files submits arriving one at a time at once', async () => {
    behind = false
    const { key } = await sdkProject(t)
    for (let i = 0; i < 3; i++) expect((await t.request('POST', '/api/bugs/submit', { apiKey: key, ip: `198.51.100.${i}`, body: bug(`One by one ${i}`) })).status).toBe(201)
    expect(inboxCount()).toBe(0)
    expect(reportCount()).toBe(3)
  })

  it('numbers queued and directly filed reports in one sequence, without gaps', async () => {
    const { key } = await sdkProject(t)
    for (const [i, queue] of [true, false, true, false].entries()) {
      behind = queue
      expect((await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug(`Bug ${i}`) })).body.data.report_number).toBe(i + 1)
    }
    fileQueued(t.deps, 10)
    expect(rows(t, 'SELECT report_number FROM reports ORDER BY report_number').map((r) => r.report_number)).toEqual([1, 2, 3, 4])
  })

  it('stacks a same-title submission onto a queued report, filing it first', async () => {
    const { key } = await sdkProject(t)
    const first = (await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug('Boss door stuck', { device_info: 'A' }) })).body.data
    const second = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug('boss  DOOR stuck', { device_info: 'B' }) })
    expect(second.status).toBe(200)
    expect(second.body.data).toMatchObject({ id: first.id, report_number: first.report_number, deduplicated: true })
    expect(inboxCount()).toBe(0)
    expect(rows(t, 'SELECT id, device_info, occurrence_count FROM reports')).toEqual([{ id: first.id, device_info: 'A', occurrence_count: 2 }])
  })

  it('files a queued report when an SDK call names it: attachments, performance samples', async () => {
    const { key } = await sdkProject(t, 'studio')
    const a = (await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug('Log attached later') })).body.data
    const attached = await t.request('POST', `/api/bugs/${a.id}/attachments`, { apiKey: key, body: { filename: 'player.log', mime_type: 'text/plain', data: b64('boot ok\n') } })
    expect(attached.status).toBe(201)
    expect(rows(t, 'SELECT report_id FROM attachments')).toEqual([{ report_id: a.id }])

    const b = (await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug('Slow frames') })).body.data
    const perf = await t.request('POST', '/api/perf/snapshot', { apiKey: key, body: { fps: 20, bug_report_id: b.id } })
    expect(perf.status).toBe(201)
    expect(rows(t, 'SELECT report_id FROM perf_snapshots')).toEqual([{ report_id: b.id }])
    expect(inboxCount()).toBe(0)
    expect(reportCount()).toBe(2)
  })

  it('files a submission with attachments at once (attachment rows need the report)', async () => {
    const { key } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug('With a log', { attachments: [{ filename: 'a.log', mime_type: 'text/plain', data: b64('x') }] }) })
    expect(res.status).toBe(201)
    expect(inboxCount()).toBe(0)
    expect(rows(t, 'SELECT r.id FROM reports r JOIN attachments a ON a.report_id = r.id')).toEqual([{ id: res.body.data.id }])
  })

  it('leaves nothing queued when the transaction that queued rolls back', async () => {
    const { project } = await sdkProject(t)
    expect(() =>
      t.deps.db.transaction(() => {
        queueReport(t.deps, project, { title: 'Rolled back', description: '' })
        throw new Error('abort')
      }),
    ).toThrow('abort')
    expect(inboxCount()).toBe(0)
    expect(fileQueued(t.deps, 10)).toBe(0)
    expect(queuedReports(t.deps.db)).toBe(0)
  })

  it('never stacks onto a queued write that rolled back, even when its row number is taken again', async () => {
    const { key, project } = await sdkProject(t)
    expect(() =>
      t.deps.db.transaction(() => {
        queueReport(t.deps, project, { title: 'Rolled back', description: '' })
        throw new Error('abort')
      }),
    ).toThrow('abort')
    // Another title reuses the row's seq (a plain rowid).
    t.deps.db.transaction(() => queueReport(t.deps, project, { title: 'Kept', description: '' }))
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug('Rolled back') })
    expect(res.status).toBe(201)
    expect(res.body.data.deduplicated).toBeUndefined()
    fileQueued(t.deps, 10)
    expect(rows(t, 'SELECT title FROM reports ORDER BY report_number').map((r) => r.title)).toEqual(['Kept', 'Rolled back'])
  })

  it('tells apart queued titles that share a slot of the in-memory title map', async () => {
    const { key, project } = await sdkProject(t)
    // Two titles whose (project, title) hashes collide, found for this project's id.
    const slots = new Map<number, string>()
    let pair: [string, string] | undefined
    // Random titles: a CRC never maps two strings that differ within 4 bytes to one value.
    while (!pair) {
      const title = `crash ${Math.random().toString(36).slice(2)}`
      const slot = Bun.hash.crc32(`${project.id}\n${title}`)
      const other = slots.get(slot)
      if (other) pair = [other, title]
      else slots.set(slot, title)
    }
    const [a, b] = pair
    t.deps.db.transaction(() => {
      queueReport(t.deps, project, { title: a, description: '' })
      queueReport(t.deps, project, { title: b, description: '' })
    })
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug(b) })
    expect(res.status).toBe(200)
    expect(res.body.data.report_number).toBe(2)
    expect(rows(t, 'SELECT title FROM reports')).toEqual([{ title: b }])
    expect(inboxCount()).toBe(1)
  })

  it('stacks onto a report queued before a restart (the titles are read back from the table)', async () => {
    const { key } = await sdkProject(t)
    const first = (await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug('Lava is cold') })).body.data
    expect(inboxCount()).toBe(1)
    const restarted = createTestApp({ env: { GLITCHBOX_DATA_DIR: t.dir } })
    try {
      const again = await restarted.request('POST', '/api/bugs/submit', { apiKey: key, body: bug('LAVA is cold') })
      expect(again.status).toBe(200)
      expect(again.body.data).toMatchObject({ id: first.id, deduplicated: true })
      expect(rows(t, 'SELECT id, occurrence_count FROM reports')).toEqual([{ id: first.id, occurrence_count: 2 }])
    } finally {
      restarted.close()
    }
  })

  it('sets aside a queued report that cannot be filed, so the ones behind it are filed', async () => {
    const { key } = await sdkProject(t)
    for (const title of ['First', 'Broken', 'Third']) await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug(title) })
    t.sqlite.exec("UPDATE report_inbox SET input = '{not json' WHERE input LIKE '%Broken%'")
    expect(fileQueued(t.deps, 10)).toBe(2)
    expect(rows(t, 'SELECT title FROM reports ORDER BY report_number').map((r) => r.title)).toEqual(['First', 'Third'])
    // Kept in the inbox (nothing is lost), and no longer in the way.
    expect(inboxCount()).toBe(1)
    expect(fileQueued(t.deps, 10)).toBe(0)
  })

  it('the filing loop works the inbox off between requests, and still moves it while requests are behind', async () => {
    const { key } = await sdkProject(t)
    for (let i = 0; i < 30; i++) await t.request('POST', '/api/bugs/submit', { apiKey: key, ip: `198.51.100.${i}`, body: bug(`Queued ${i}`) })
    expect(inboxCount()).toBe(30)
    let busy = true
    const stop = startInboxFiling(t.deps, () => busy)
    try {
      await Bun.sleep(250)
      // A trickle: one slice of 8 per 100 ms at most while busy.
      expect(inboxCount()).toBeLessThan(30)
      expect(inboxCount()).toBeGreaterThanOrEqual(30 - 8 * 3)
      busy = false
      for (let i = 0; i < 100 && inboxCount() > 0; i++) await Bun.sleep(10)
      expect(inboxCount()).toBe(0)
      expect(reportCount()).toBe(30)
    } finally {
      stop()
    }
  })
})
