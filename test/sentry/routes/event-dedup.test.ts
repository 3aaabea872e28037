// Issue 28, finding 5: an SDK that sends an event again (a retry after a lost answer) gets the same
// answer and changes nothing, for as long as the retention window keeps the event's id.
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY } from '../../../src/lib/clock'
import { runRetention } from '../../../src/modules/retention/retention.service'
import { createTestApp, type TestApp } from '../../helpers/test-app'
import { sqlRows } from '../../helpers/sql-rows'
import { sdkProject } from '../../sdk/sdk-helpers'
import { CAPTURE_KEY, capturedProject, post } from './sentry-routes-helpers'

const EVENT_ID = '5e1d0c2b9a8f47e6b3c2d1e0f9a8b7c6'
const event = { event_id: EVENT_ID, level: 'error', release: '1.2.0', exception: { values: [{ type: 'NullReferenceException', value: 'boom', stacktrace: { frames: [{ function: 'Inventory.Refresh', filename: 'Inventory.cs', lineno: 42, in_app: true }] } }] } }
/** The envelope an SDK sends (and sends again): the event, a log file and a session update. */
const envelope = [
  JSON.stringify({ event_id: EVENT_ID }),
  '{"type":"event"}',
  JSON.stringify(event),
  '{"type":"attachment","filename":"player.log","length":5}',
  'hello',
  '{"type":"session"}',
  JSON.stringify({ sid: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6', status: 'crashed', started: '2026-01-05T11:00:00Z', attrs: { release: '1.2.0' } }),
].join('\n')

let t: TestApp
beforeEach(() => {
  t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0', GLITCHBOX_RATE_LIMIT_GLOBAL: '0' } })
})
afterEach(() => t.close())

const sendEnvelope = () => post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, gzipSync(envelope), { 'content-encoding': 'gzip' })
/** What a sent event may change: reports, occurrences, files, play sessions. */
const effects = async () => ({
  reports: await sqlRows(t, 'SELECT report_number, occurrence_count FROM reports'),
  occurrences: (await sqlRows(t, 'SELECT count(*) AS n FROM report_occurrences'))[0]!.n,
  attachments: (await sqlRows(t, 'SELECT count(*) AS n FROM attachments'))[0]!.n,
  files: (await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n,
  sessions: (await sqlRows(t, 'SELECT count(*) AS n FROM play_sessions'))[0]!.n,
})

describe('an event id the project already stored', () => {
  it('answers 200 with the same id five times and stores one occurrence, one file, one session', async () => {
    await capturedProject(t)
    const first = await sendEnvelope()
    expect([first.status, first.json]).toEqual([200, { id: EVENT_ID }])
    const once = await effects()
    expect(once).toMatchObject({ reports: [{ report_number: 1, occurrence_count: 1 }], occurrences: 1, attachments: 1, sessions: 1 })
    for (let i = 0; i < 4; i++) expect(await sendEnvelope()).toMatchObject({ status: 200, json: { id: EVENT_ID } })
    expect(await effects()).toEqual(once)
  })

  it('counts once when the copies arrive together', async () => {
    await capturedProject(t)
    const answers = await Promise.all(Array.from({ length: 5 }, sendEnvelope))
    expect(answers.map((a) => [a.status, a.json])).toEqual(Array(5).fill([200, { id: EVENT_ID }]))
    expect(await effects()).toMatchObject({ reports: [{ report_number: 1, occurrence_count: 1 }], occurrences: 1 })
  })

  it('is the same event on the store route, and another project may have the same id', async () => {
    await capturedProject(t)
    for (let i = 0; i < 3; i++) expect((await post(t, `/api/42/store/?sentry_key=${CAPTURE_KEY}`, JSON.stringify(event))).json).toEqual({ id: EVENT_ID })
    expect((await effects()).occurrences).toBe(1)
    const other = await sdkProject(t)
    const stored = await post(t, `/api/${other.project.dsnId}/store/?sentry_key=${other.key}`, JSON.stringify(event))
    expect([stored.status, stored.json]).toEqual([200, { id: EVENT_ID }])
    expect((await sqlRows(t, 'SELECT project_id FROM report_occurrences ORDER BY seq')).map((r) => r.project_id)).toEqual([expect.any(String), other.project.id])
  })

  it('is forgotten with the retention window: the retention job prunes the ids, and a later copy counts again', async () => {
    await capturedProject(t)
    await sendEnvelope()
    t.clock.advance(91 * DAY)
    const run = await runRetention(t.deps, { pause: async () => {} })
    expect(run.deleted.event_ids).toBe(1)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM ingested_event_ids'))[0]!.n).toBe(0)
    await sendEnvelope()
    expect(await effects()).toMatchObject({ reports: [{ report_number: 1, occurrence_count: 2 }], occurrences: 2 })
  })
})
