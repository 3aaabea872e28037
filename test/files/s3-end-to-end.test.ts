import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { storageStats } from '../../src/modules/retention/retention.stats'
import { startS3, type TestS3 } from '../helpers/s3-server'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sqlRows } from '../helpers/sql-rows'
import { pngDataUrl, PNG, WEBM } from '../sdk/sdk-helpers'
import { CAPTURE_KEY, capturedProject, post } from '../sentry/routes/sentry-routes-helpers'

let s3: TestS3
let t: TestApp
beforeAll(async () => {
  s3 = await startS3('glitchbox/')
})
afterAll(() => s3?.close())
beforeEach(async () => {
  t = createTestApp({ env: s3.env })
  await Promise.all((await s3.keys()).map((k) => s3.client.delete(k)))
})
afterEach(() => t.close())

const pathOf = (url: string) => new URL(url).pathname
const keyOf = (url: string) => pathOf(url).split('/').pop()!
const inBucket = async () => (await s3.keys()).map((k) => k.slice('glitchbox/'.length))

/** An envelope with an event and one attachment, as a Sentry SDK sends it. */
function envelopeWithLog(log: string): Uint8Array<ArrayBuffer> {
  const item = (headers: object, payload: Buffer) => [Buffer.from(`${JSON.stringify({ ...headers, length: payload.length })}\n`), payload, Buffer.from('\n')]
  const event = { event_id: 'e'.repeat(32), level: 'error', exception: { values: [{ type: 'StackOverflowException', value: 'deep', stacktrace: { frames: [{ function: 'Recurse', filename: 'Ai.cs', in_app: true }] } }] } }
  return new Uint8Array(
    Buffer.concat([
      Buffer.from(`${JSON.stringify({ event_id: 'e'.repeat(32) })}\n`),
      ...item({ type: 'event' }, Buffer.from(JSON.stringify(event))),
      ...item({ type: 'attachment', filename: 'player.log', content_type: 'text/plain' }, Buffer.from(log)),
    ]),
  )
}

describe('files on S3-compatible storage, end to end', () => {
  it('keeps an SDK screenshot, a Sentry attachment and a replay in the bucket, serves them with Range, and removes a deleted report\'s objects', async () => {
    const { owner, project } = await capturedProject(t)
    const submit = await t.request('POST', '/api/bugs/submit', { apiKey: CAPTURE_KEY, body: { title: 'Falls through the floor', description: 'at the bridge', screenshot: pngDataUrl() } })
    expect(submit.status).toBe(201)
    const [{ screenshot_key: screenshot }] = (await sqlRows(t, 'SELECT screenshot_key FROM reports WHERE id = ?', submit.body.data.id)) as [{ screenshot_key: string }]

    const log = '[12:00:01] loading level 3\n'.repeat(40)
    expect((await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, envelopeWithLog(log))).status).toBe(200)
    const [attachment] = (await sqlRows(t, "SELECT file_key FROM attachments WHERE file_name = 'player.log'"))

    const form = new FormData()
    form.set('bug_report_id', submit.body.data.id)
    form.set('file', new File([WEBM], 'replay.webm', { type: 'video/webm' }))
    const replay = await t.request('POST', '/api/session-replays', { apiKey: CAPTURE_KEY, body: form })
    expect(replay.status).toBe(201)

    // Every stored file is an object in the bucket under the prefix, and none is on local disk.
    const keys = [screenshot, attachment!.file_key, keyOf(replay.body.data.file_url)].sort()
    expect(await inBucket()).toEqual(keys)
    expect((await sqlRows(t, 'SELECT key FROM files ORDER BY key')).map((r) => r.key)).toEqual(keys)
    expect((await storageStats(t.config, t.deps.db)).files).toEqual({ bytes: PNG.length + log.length + WEBM.length, count: 3 })
    const storageBytes = async () => (await t.request('GET', '/api/account', { token: owner.token })).body.data.usage.storage_bytes
    expect(await storageBytes()).toBe(PNG.length + log.length + WEBM.length)

    const shot = await t.request('GET', `/api/files/${screenshot}`)
    expect([shot.status, shot.headers.get('content-type'), shot.headers.get('content-length')]).toEqual([200, 'image/png', String(PNG.length)])
    const range = await t.app.handle(new Request(`http://localhost${pathOf(replay.body.data.file_url)}`, { headers: { range: 'bytes=4-9', 'x-forwarded-for': '10.2.3.4' } }))
    expect([range.status, range.headers.get('content-range')]).toEqual([206, `bytes 4-9/${WEBM.length}`])
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(WEBM.subarray(4, 10))
    const logPart = await t.request('GET', `/api/files/${attachment!.file_key}`, { headers: { range: 'bytes=0-9' } })
    expect([logPart.status, logPart.body]).toEqual([206, log.slice(0, 10)])

    // Deleting the SDK report withdraws its screenshot and replay at once; the queued job removes the objects.
    expect((await t.request('DELETE', `/api/projects/${project.slug}/bugs/${submit.body.data.report_number}`, { token: owner.token })).status).toBe(200)
    expect((await t.request('GET', `/api/files/${screenshot}`)).status).toBe(404)
    await t.runner.drain()
    expect(await inBucket()).toEqual([attachment!.file_key])
    expect((await sqlRows(t, 'SELECT key FROM files')).map((r) => r.key)).toEqual([attachment!.file_key])
    expect((await t.request('GET', `/api/files/${attachment!.file_key}`)).status).toBe(200)
    expect(await storageBytes()).toBe(log.length)
  })

  it.each([
    ['project', (slug: string) => ['DELETE', `/api/projects/${slug}`, undefined] as const],
    ['account', () => ['DELETE', '/api/auth/account', { confirmation: 'DELETE' }] as const],
  ])('removes the objects of a deleted %s', async (_, deletion) => {
    const { owner, project } = await capturedProject(t)
    expect((await t.request('POST', '/api/bugs/submit', { apiKey: CAPTURE_KEY, body: { title: 'Softlock', description: 'd', screenshot: pngDataUrl() } })).status).toBe(201)
    expect(await inBucket()).toHaveLength(1)
    const [method, path, body] = deletion(project.slug)
    expect((await t.request(method, path, { token: owner.token, body })).status).toBe(200)
    await t.runner.drain()
    expect(await inBucket()).toEqual([])
  })

  it('answers 503 and logs the cause when the bucket cannot be reached, filing nothing', async () => {
    const down = createTestApp({ env: { ...s3.env, GLITCHBOX_S3_ENDPOINT: 'http://127.0.0.1:1' } })
    try {
      await capturedProject(down)
      const res = await down.request('POST', '/api/bugs/submit', { apiKey: CAPTURE_KEY, body: { title: 'Softlock', description: 'd', screenshot: pngDataUrl() } })
      expect([res.status, res.body]).toEqual([503, { ok: false, error: 'file storage is unavailable; try again later' }])
      expect((await sqlRows(down, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
      expect(down.logs.find((l) => l.msg === 'file storage failed')).toMatchObject({ op: 'put', bucket: 'glitchbox-test', error: expect.stringContaining('ConnectionRefused') })
      expect((await down.request('GET', `/api/files/${'A'.repeat(43)}.png`)).status).toBe(404)
    } finally {
      down.close()
    }
  })
})
