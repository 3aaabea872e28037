// Issue 28 finding 10: an envelope attachment of no known type (no content type, a `.bin` save game)
// was dropped without a word while the README says "other files are kept on the report". It is kept
// as bytes, team-only, served as a download; a file whose bytes contradict its declared type is still
// left out, and the event is filed either way.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../helpers/test-app'
import { sqlRows } from '../../helpers/sql-rows'
import { CAPTURE_KEY, capturedProject, post } from './sentry-routes-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const EVENT_ID = 'e'.repeat(32)
/** Bytes that are no image, video, minidump, text or JSON (a NUL and high bytes, fixed). */
const SAVE = Buffer.from([0x53, 0x41, 0x56, 0x00, 0x01, 0x02, 0xff, 0xfe, 0x80, 0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60])

/** An envelope with its event and the given attachment items (headers and payload bytes). */
function envelopeWith(...attachments: [object, Buffer][]) {
  const item = (headers: object, payload: Buffer) => [Buffer.from(`${JSON.stringify({ ...headers, length: payload.length })}\n`), payload, Buffer.from('\n')]
  const event = { event_id: EVENT_ID, level: 'error', exception: { values: [{ type: 'SaveError', value: 'slot 3 unreadable' }] } }
  return Buffer.concat([
    Buffer.from(`${JSON.stringify({ event_id: EVENT_ID })}\n`),
    ...item({ type: 'event' }, Buffer.from(JSON.stringify(event))),
    ...attachments.flatMap(([h, p]) => item({ type: 'attachment', ...h }, p)),
  ])
}

describe('binary envelope attachments', () => {
  it('are kept on the report as bytes, served to the team as a download', async () => {
    const { owner } = await capturedProject(t)
    const body = envelopeWith(
      [{ filename: 'slot-3.bin' }, SAVE],
      [{ filename: 'stats.ue4stats', content_type: 'application/x-ue4-stats' }, SAVE],
      [{ filename: 'player.log', content_type: 'text/plain' }, Buffer.from('[12:00] saving slot 3\n')],
    )
    expect((await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, body)).status).toBe(200)

    const kept = (await sqlRows(t, 'SELECT a.file_name, a.mime_type, a.file_key FROM attachments a JOIN report_occurrences o ON o.id = a.occurrence_id ORDER BY a.file_name'))
    expect(kept.map(({ file_name, mime_type }) => ({ file_name, mime_type }))).toEqual([
      { file_name: 'player.log', mime_type: 'text/plain' },
      { file_name: 'slot-3.bin', mime_type: 'application/octet-stream' },
      { file_name: 'stats.ue4stats', mime_type: 'application/octet-stream' },
    ])

    const key = kept.find((a) => a.file_name === 'slot-3.bin')!.file_key as string
    const file = await t.app.handle(new Request(`http://localhost/api/files/${key}`, { headers: { authorization: `Bearer ${owner.token}` } }))
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/octet-stream')
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="slot-3.bin"/)
    expect(Buffer.from(await file.arrayBuffer())).toEqual(SAVE)
  })

  it('are left out when their bytes contradict the declared type; the event is filed', async () => {
    await capturedProject(t)
    const body = envelopeWith([{ filename: 'fake.png', content_type: 'image/png' }, SAVE], [{ filename: 'empty.bin' }, Buffer.alloc(0)])
    expect((await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, body)).status).toBe(200)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(1)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM attachments'))[0]!.n).toBe(0)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
  })
})
