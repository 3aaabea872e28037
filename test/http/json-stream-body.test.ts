import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Elysia } from 'elysia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { unauthorized } from '../../src/http/errors'
import { SMALL_BODY, streamedJsonBody } from '../../src/http/json-stream/json-body'
import { spilledBase64 } from '../../src/http/json-stream/spill'
import { httpPipeline } from '../../src/http/pipeline'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { streamOf } from '../sentry/sentry-helpers'

let t: TestApp
let app: { handle(request: Request): Promise<Response> }
const MB = 1024 * 1024

beforeEach(() => {
  t = createTestApp()
  const body = streamedJsonBody({
    base64Paths: [['file']],
    maxFileBytes: 3 * MB,
    tempPath: () => t.deps.files.tempPath(),
    beforeRead(request) {
      if (request.headers.get('x-api-key') === 'wrong') throw unauthorized('invalid API key')
    },
  })
  // Under /api/bugs/submit so the route's body limit (20 MB) applies.
  app = new Elysia().use(httpPipeline(t.deps)).post(
    '/api/bugs/submit',
    ({ body: b }) => {
      const spilled = spilledBase64(b.file)
      return spilled
        ? { spilled: true, size: spilled.size, declared: spilled.declaredType, invalid: spilled.invalid, content: spilled.size <= 3 * MB && !spilled.invalid && spilled.size > 0 ? readFileSync(spilled.path).toString('hex') : null }
        : { spilled: false, file: b.file }
    },
    { body: z.object({ title: z.string(), file: z.string() }), ...body },
  )
})
afterEach(() => t.close())

const tmpFiles = () => readdirSync(join(t.dir, 'tmp'))

/** Waits for the temp folder to be empty (temp files are deleted after the response is sent). */
async function tempFolderEmpties() {
  for (let i = 0; i < 100 && tmpFiles().length > 0; i++) await Bun.sleep(10)
  expect(tmpFiles()).toEqual([])
}


const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  app.handle(new Request('http://localhost/api/bugs/submit', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, duplex: 'half' } as RequestInit))

const noise = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + (i >> 8)) & 0xff))

describe('streamedJsonBody', () => {
  it('decodes a big body’s base64 value into a temp file the handler can read, deleted after the response', async () => {
    const file = noise(2 * MB)
    const json = JSON.stringify({ title: 'big', file: `data:image/png;base64,${file.toString('base64')}` })
    const res = await post(streamOf(Buffer.from(json), 100_003).stream)
    expect(res.status).toBe(200)
    expect((await res.json()).data).toEqual({ spilled: true, size: file.length, declared: 'image/png', invalid: false, content: file.toString('hex') })
    await tempFolderEmpties()
  })

  it('leaves a small body with a Content-Length to JSON.parse: the value stays inline', async () => {
    const json = JSON.stringify({ title: 'small', file: 'aGk=' })
    const res = await post(json, { 'content-length': String(json.length) })
    expect((await res.json()).data).toEqual({ spilled: false, file: 'aGk=' })
  })

  it('parses a small chunked body whole, and a big one with a Content-Length as a stream', async () => {
    const small = JSON.stringify({ title: 'small', file: 'aGk=' })
    expect((await (await post(streamOf(Buffer.from(small), 5).stream)).json()).data).toEqual({ spilled: false, file: 'aGk=' })
    const big = JSON.stringify({ title: 'big', file: 'QUFB'.repeat(SMALL_BODY / 4) })
    const res = await post(big, { 'content-length': String(big.length) })
    expect((await res.json()).data).toMatchObject({ spilled: true, size: (SMALL_BODY / 4) * 3, invalid: false })
  })

  it('records an invalid or oversized value instead of failing the parse', async () => {
    const bad = await post(streamOf(Buffer.from(JSON.stringify({ title: 'x', file: `${'aGk='.repeat(30_000)}!` }))).stream)
    expect((await bad.json()).data).toMatchObject({ spilled: true, invalid: true })
    const big = noise(3 * MB + 1).toString('base64')
    const over = await post(streamOf(Buffer.from(JSON.stringify({ title: 'x', file: big }))).stream)
    expect((await over.json()).data).toMatchObject({ spilled: true, invalid: false, size: 3 * MB + 1, content: null })
    await tempFolderEmpties()
  })

  it('stops reading a chunked body past the route limit: 400', async () => {
    const json = Buffer.from(JSON.stringify({ title: 'x', file: 'QUFB'.repeat((25 * MB) / 4) }))
    const body = streamOf(json, MB)
    const res = await post(body.stream)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ ok: false, error: 'request body too large (max 20 MB)' })
    expect(body.pulled()).toBeLessThanOrEqual(22 * MB)
    await tempFolderEmpties()
  })

  it('answers malformed JSON with the pipeline’s 400 and removes what was spilled', async () => {
    const json = `{"title":"x","file":"${'QUFB'.repeat(100_000)}",`
    const res = await post(streamOf(Buffer.from(json)).stream)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ ok: false, error: 'malformed request body (expected valid JSON)' })
    await tempFolderEmpties()
  })

  it('removes the temp file when the body then fails validation', async () => {
    const res = await post(streamOf(Buffer.from(JSON.stringify({ file: 'QUFB'.repeat(100_000) }))).stream)
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('title is required')
    await tempFolderEmpties()
  })

  it('refuses in beforeRead without reading the body, with that error’s status', async () => {
    const body = streamOf(Buffer.from(JSON.stringify({ title: 'x', file: 'QUFB'.repeat(1_000_000) })))
    const res = await post(body.stream, { 'x-api-key': 'wrong' })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ ok: false, error: 'invalid API key' })
    expect(body.pulled()).toBeLessThanOrEqual(64 * 1024)
    expect(tmpFiles()).toEqual([])
  })
})
