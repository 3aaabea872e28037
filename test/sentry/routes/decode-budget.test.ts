// Issue 28, finding 1: bodies that inflate are paid for only by callers that named a real project,
// and the server decodes a bounded number of bytes at once, however many arrive together.
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DecodeBudget } from '../../../src/http/decode-budget'
import { createTestApp, type TestApp } from '../../helpers/test-app'
import { sqlRows } from '../../helpers/sql-rows'
import { streamOf } from '../sentry-helpers'
import { CAPTURE_KEY, capturedProject, post } from './sentry-routes-helpers'

const MB = 1024 * 1024
/** 120 MB of zeros in about 120 KB: decoding it to the 100 MB cap costs 100 MB or more. */
const bomb = gzipSync(Buffer.alloc(120 * MB))
/** The same bomb behind a valid envelope header line naming `dsn`. */
const headedBomb = (dsn: string) => gzipSync(Buffer.concat([Buffer.from(`${JSON.stringify({ dsn })}\n{"type":"attachment","length":${120 * MB}}\n`), Buffer.alloc(120 * MB)]))

let t: TestApp
beforeEach(() => {
  t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0', GLITCHBOX_RATE_LIMIT_GLOBAL: '0' } })
})
afterEach(() => t.close())

/** The one chunk a request body stream hands out before anyone reads it (its own first pull). */
const PREFETCH = 16 * 1024

/** POSTs a stream to a Sentry route; `pulled` tells how much of the body was read. */
async function postStream(path: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  const body = streamOf(bytes, 16 * 1024)
  const res = await post(t, path, body.stream, { 'content-encoding': 'gzip', ...headers })
  return { ...res, pulled: body.pulled() }
}

describe('the DSN id and the key are checked before the body is read', () => {
  it('answers 401 to a DSN id that does not exist without reading any of a gzip bomb', async () => {
    await capturedProject(t)
    const res = await postStream('/api/424242/envelope/', headedBomb(`http://${CAPTURE_KEY}@glitchbox.test/424242`))
    expect([res.status, res.json]).toEqual([401, { detail: 'invalid API key' }])
    expect(res.pulled).toBeLessThanOrEqual(PREFETCH)
    expect(t.deps.decodeBudget.peak).toBe(0)
  })

  it('answers 401 to a wrong key in the envelope header after reading and decoding only its first line', async () => {
    await capturedProject(t)
    const res = await postStream('/api/42/envelope/', headedBomb('http://sk_live_wrong@glitchbox.test/42'))
    expect([res.status, res.json]).toEqual([401, { detail: 'invalid API key' }])
    expect(res.pulled).toBeLessThanOrEqual(32 * 1024)
    expect(t.deps.decodeBudget.peak).toBe(0)
  })

  it('answers 401 to a wrong key in the query without reading the body, on every route that inflates', async () => {
    await capturedProject(t)
    for (const route of ['envelope', 'store', 'minidump']) {
      const res = await postStream(`/api/42/${route}/?sentry_key=sk_live_wrong`, bomb)
      expect([route, res.status, res.pulled <= PREFETCH]).toEqual([route, 401, true])
    }
  })

  it('still files an envelope whose key is only in its header (gzip)', async () => {
    await capturedProject(t)
    const envelope = `${JSON.stringify({ dsn: `http://${CAPTURE_KEY}@glitchbox.test/42` })}\n{"type":"event"}\n{"message":"hello from a tunnel"}\n`
    const res = await postStream('/api/42/envelope/', gzipSync(envelope))
    expect(res.status).toBe(200)
    expect((await sqlRows(t, 'SELECT title FROM reports'))).toEqual([{ title: 'hello from a tunnel' }])
  })
})

describe('the decoding budget (http/decode-budget.ts)', () => {
  it('bounds how many bombs with a valid key inflate at once: 6 sent together, at most 2 at the 100 MB cap, each a 413', async () => {
    await capturedProject(t)
    const budget = t.deps.decodeBudget
    // This test bounds how many inflate at once, not how long one waits: a busy machine inflates a
    // 100 MB bomb in over 2.5 s, so the third pair could pass the 5 s wait and get a 503.
    ;(budget as { options: typeof budget.options }).options = { ...budget.options, maxWaitMs: 120_000 }
    const full = 100 * MB
    let atCap = 0
    let mostAtCap = 0
    const hold = budget.hold.bind(budget)
    budget.hold = async (bytes) => {
      const release = await hold(bytes)
      if (bytes < full) return release
      mostAtCap = Math.max(mostAtCap, ++atCap)
      let done = false
      return () => {
        if (!done) atCap--
        done = true
        release()
      }
    }
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, bomb, { 'content-encoding': 'gzip' })))
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(413))
    expect(mostAtCap).toBe(Math.floor(budget.options.capacity / full))
    expect(budget.peak).toBeLessThanOrEqual(budget.options.capacity)
    expect(budget.inUse).toBe(0)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
  })

  it('lets a request wait while the budget is spent, then serves it', async () => {
    await capturedProject(t)
    const budget = t.deps.decodeBudget
    const releaseAll = await budget.hold(budget.options.capacity)
    const answer = post(t, `/api/42/store/?sentry_key=${CAPTURE_KEY}`, gzipSync('{"message":"waited"}'), { 'content-encoding': 'gzip' })
    // The request is queued behind the held budget (settled only once it is given back).
    await Bun.sleep(20)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
    releaseAll()
    expect((await answer).status).toBe(200)
    expect(budget.inUse).toBe(0)
  })
})

describe('a slow sender', () => {
  it('holds no share of the budget while its body is still arriving', async () => {
    await capturedProject(t)
    const body = gzipSync('{"message":"sent slowly"}')
    let finish!: () => void
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(body.subarray(0, 10))
        finish = () => {
          c.enqueue(body.subarray(10))
          c.close()
        }
      },
    })
    const answer = post(t, `/api/42/store/?sentry_key=${CAPTURE_KEY}`, stream, { 'content-encoding': 'gzip' })
    await Bun.sleep(20)
    expect(t.deps.decodeBudget.inUse).toBe(0)
    finish()
    expect((await answer).status).toBe(200)
    expect(t.deps.decodeBudget.peak).toBeGreaterThan(0)
  })
})

describe('DecodeBudget', () => {
  it('grants in arrival order and refuses with 503 and Retry-After once a request has waited maxWaitMs', async () => {
    const budget = new DecodeBudget({ capacity: 10, smallShare: 1, maxWaitMs: 30 })
    const first = await budget.hold(8)
    const order: string[] = []
    const big = budget.hold(5).then((release) => (order.push('big'), release))
    const small = budget.hold(1).then((release) => (order.push('small'), release))
    // The small one fits now but queues behind the big one: no request is passed over for ever.
    await Bun.sleep(5)
    expect(order).toEqual([])
    first()
    ;(await big)()
    ;(await small)()
    expect(order).toEqual(['big', 'small'])
    const hogging = await budget.hold(10)
    const refused = await budget.hold(1).then(
      () => null,
      (err: { status: number; headers: Record<string, string> }) => err,
    )
    expect([refused?.status, refused?.headers['retry-after']]).toEqual([503, '5'])
    hogging()
    hogging()
    expect(budget.inUse).toBe(0)
  })
})
