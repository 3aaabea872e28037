// Sentry SDKs compress their bodies (gzip, deflate with or without the zlib wrapper, br); a hostile
// one sends a small body that inflates without end. decodeBody must stop at both caps as it streams.
import { randomBytes } from 'node:crypto'
import zlib from 'node:zlib'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeBody, openBody } from '../../src/modules/sentry/protocol/decode-body'
import { SentryProtocolError } from '../../src/modules/sentry/protocol/protocol-error'
import { fixture, streamOf } from './sentry-helpers'

const MB = 1024 * 1024
const text = Buffer.from('{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}\n{"type":"event"}\n{"message":"hello"}\n'.repeat(50))

/** The error decodeBody rejects with (fails the test when it resolves). */
async function refusal(p: Promise<unknown>): Promise<SentryProtocolError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(SentryProtocolError)
  return err as SentryProtocolError
}

describe('decodeBody', () => {
  it.each([
    ['gzip', zlib.gzipSync(text)],
    ['x-gzip', zlib.gzipSync(text)],
    ['deflate', zlib.deflateSync(text)],
    ['deflate', zlib.deflateRawSync(text)],
    ['br', zlib.brotliCompressSync(text)],
    ['GZIP ', zlib.gzipSync(text)],
  ])('undoes Content-Encoding %s, whatever the chunk size', async (encoding, body) => {
    for (const chunk of [1, 7, 64 * 1024]) expect(Buffer.from(await decodeBody(streamOf(body, chunk).stream, encoding))).toEqual(text)
  })

  it.each([null, '', 'identity', 'none', 'UTF-8', 'utf-8'])('passes the body through for Content-Encoding %j', async (encoding) => {
    expect(Buffer.from(await decodeBody(streamOf(text, 100).stream, encoding))).toEqual(text)
  })

  it('takes a null body as empty', async () => {
    expect(await decodeBody(null, 'gzip')).toHaveLength(0)
  })

  it('decodes a gzip body of several members (concatenated gzip files) whole', async () => {
    const body = Buffer.concat([zlib.gzipSync(text.subarray(0, 100)), zlib.gzipSync(text.subarray(100))])
    expect(Buffer.from(await decodeBody(streamOf(body, 33).stream, 'gzip'))).toEqual(text)
  })

  it.each(['zstd', 'compress', 'gzip, br', 'bogus'])('refuses Content-Encoding %j with 400', async (encoding) => {
    expect((await refusal(decodeBody(streamOf(text).stream, encoding))).status).toBe(400)
  })

  it.each([
    ['gzip', zlib.gzipSync(text).subarray(0, 60)],
    ['deflate', zlib.deflateSync(text).subarray(0, 30)],
    ['deflate', zlib.deflateRawSync(text).subarray(0, 30)],
    ['br', zlib.brotliCompressSync(text).subarray(0, 20)],
    ['gzip', text],
    ['br', Buffer.from('this is not brotli at all, just text')],
    ['gzip', Buffer.concat([zlib.gzipSync(text).subarray(0, 20), Buffer.alloc(100, 0xff)])],
  ])('answers 400 for a truncated or corrupt %s stream', async (encoding, body) => {
    const err = await refusal(decodeBody(streamOf(body, 16).stream, encoding))
    expect(err.status).toBe(400)
    expect(err.message).toMatch(/corrupt or truncated/)
  })

  it('answers 400 when the body stream fails (the client went away)', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array([1, 2, 3]))
        c.error(new Error('socket closed'))
      },
    })
    expect((await refusal(decodeBody(stream, null))).status).toBe(400)
  })

  it('stops reading the wire at maxWireBytes with 413, compressed or not', async () => {
    const big = Buffer.alloc(300 * 1024, 0x61)
    for (const [encoding, body] of [
      [null, big],
      ['gzip', zlib.gzipSync(randomBytes(300 * 1024))],
    ] as const) {
      const { stream, pulled } = streamOf(body, 16 * 1024)
      const err = await refusal(decodeBody(stream, encoding, { maxWireBytes: 100 * 1024, maxDecodedBytes: 10 * MB }))
      expect([err.status, err.message]).toEqual([413, 'request body too large (max 100 KB)'])
      expect(pulled()).toBeLessThanOrEqual(100 * 1024 + 32 * 1024)
    }
  })

  it('accepts a body of exactly the caps', async () => {
    const body = Buffer.alloc(4096, 0x62)
    expect(await decodeBody(streamOf(zlib.gzipSync(body)).stream, 'gzip', { maxWireBytes: 4096, maxDecodedBytes: 4096 })).toHaveLength(4096)
    expect(await decodeBody(streamOf(body).stream, null, { maxWireBytes: 4096, maxDecodedBytes: 4096 })).toHaveLength(4096)
    expect((await refusal(decodeBody(streamOf(zlib.gzipSync(body)).stream, 'gzip', { maxWireBytes: 4096, maxDecodedBytes: 4095 }))).status).toBe(413)
  })

  it('refuses a body that inflates past maxDecodedBytes with 413, deflate and br alike', async () => {
    const plain = Buffer.alloc(2 * MB, 0x63)
    for (const [encoding, body] of [
      ['deflate', zlib.deflateSync(plain)],
      ['deflate', zlib.deflateRawSync(plain)],
      ['br', zlib.brotliCompressSync(plain)],
    ] as const) {
      const err = await refusal(decodeBody(streamOf(body).stream, encoding, { maxWireBytes: MB, maxDecodedBytes: MB }))
      expect([err.status, err.message]).toEqual([413, 'request body too large once decompressed (max 1 MB)'])
    }
  })

  it('answers at once when the body passes the wire cap while the client is still sending (no wait for its next chunk)', async () => {
    let cancelled = false
    const stalled = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(2 * MB))
      },
      // The client sends nothing more and never ends the body.
      pull: () => new Promise<void>(() => {}),
      cancel() {
        cancelled = true
      },
    })
    const outcome = await Promise.race([decodeBody(stalled, 'br', { maxWireBytes: MB, maxDecodedBytes: MB }).catch((e: unknown) => e), Bun.sleep(3000).then(() => 'stalled')])
    expect(outcome).toBeInstanceOf(SentryProtocolError)
    expect((outcome as SentryProtocolError).status).toBe(413)
    expect(cancelled).toBe(true)
  })

  // That inflating stops at the cap, the tests below measure in memory (wall time is no measure on a busy machine).
  it('refuses a brotli bomb (809 bytes → 1 GiB) at a 1 MB cap', async () => {
    const bomb = fixture('zeros-1gib.br')
    expect(bomb.length).toBeLessThan(1024)
    expect((await refusal(decodeBody(streamOf(bomb).stream, 'br', { maxWireBytes: MB, maxDecodedBytes: MB }))).status).toBe(413)
  })

  // In a process of their own, so the peak memory measured is the decoding's alone.
  it.each([
    ['a 1 MB gzip bomb (1000 MiB of zeros in ten 100 KB members)', 'gzip'],
    ['an 809-byte brotli bomb (1 GiB of zeros)', 'br'],
  ])('refuses %s with the default caps, its peak memory growing by about the 100 MB cap, not the bomb', async (_name, encoding) => {
    const child = Bun.spawn([process.execPath, join(import.meta.dirname, 'decode-bomb.child.ts'), encoding], { stdout: 'pipe', stderr: 'inherit' })
    const [code, out] = await Promise.all([child.exited, new Response(child.stdout).text()])
    expect(code).toBe(0)
    const figures = JSON.parse(out) as { status: number; message: string; bombBytes: number; ms: number; peakGrowthMB: number }
    console.info(`${encoding} bomb of ${figures.bombBytes} bytes: ${figures.status} in ${figures.ms} ms, peak RSS +${figures.peakGrowthMB} MB`)
    expect([figures.status, figures.message]).toEqual([413, 'request body too large once decompressed (max 100 MB)'])
    expect(figures.bombBytes).toBeLessThan(1.1 * MB)
    // Inflating the whole bomb would take 1000 MB or more; capped, about 100-200 MB (the child's own
    // VmHWM: 105-126 MB measured, alone and with four busy loops on two cores).
    expect(figures.peakGrowthMB).toBeLessThan(400)
  })
})

describe('openBody(…).firstLine: the envelope header before the rest of the body', () => {
  const header = '{"dsn":"https://sk_live_x@glitchbox.test/42","sent_at":"2026-11-29T04:00:00Z"}\n'
  // A header, then 60 MB of an attachment that compresses to little: a bomb behind a plain header line.
  const bombAfterHeader = Buffer.concat([Buffer.from(header), Buffer.from('{"type":"attachment","length":62914560}\n'), Buffer.alloc(60 * MB)])

  it.each([
    ['gzip', zlib.gzipSync(bombAfterHeader)],
    ['deflate', zlib.deflateSync(bombAfterHeader)],
    ['deflate', zlib.deflateRawSync(bombAfterHeader)],
    ['br', zlib.brotliCompressSync(bombAfterHeader)],
    [null, Buffer.from(bombAfterHeader)],
  ])('gives the first line of a %s body, reading and decoding only its start', async (encoding, body) => {
    const stream = streamOf(body, 16 * 1024)
    const line = await openBody(stream.stream, encoding).firstLine(64 * 1024)
    expect(Buffer.from(line).toString()).toBe(header)
    // One or two chunks of the wire, whatever the body inflates to.
    expect(stream.pulled()).toBeLessThanOrEqual(32 * 1024)
  })

  it('stops within `max` decoded bytes when no newline comes, and at the end of a shorter body', async () => {
    const long = await openBody(streamOf(zlib.gzipSync(Buffer.alloc(10 * MB, 'x'))).stream, 'gzip').firstLine(1000)
    expect(long.length).toBeGreaterThan(0)
    expect(long.length).toBeLessThanOrEqual(1000)
    expect((await openBody(streamOf(Buffer.alloc(10 * MB, 'x')).stream, null).firstLine(1000)).length).toBe(1000)
    expect(Buffer.from(await openBody(streamOf(zlib.gzipSync('{}')).stream, 'gzip').firstLine(1000)).toString()).toBe('{}')
  })

  it('then decodes the whole body, the start included', async () => {
    const body = openBody(streamOf(zlib.gzipSync(text), 7).stream, 'gzip')
    await body.firstLine(64 * 1024)
    expect(Buffer.from((await body.decoded())!)).toEqual(text)
  })

  it('answers null past a share below the limit, and 413 past the limit', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(3 * MB))
    expect(await openBody(streamOf(bomb).stream, 'gzip').decoded(MB)).toBeNull()
    expect((await openBody(streamOf(bomb).stream, 'gzip').decoded(4 * MB))!.length).toBe(3 * MB)
    expect((await refusal(openBody(streamOf(bomb).stream, 'gzip', { maxWireBytes: MB, maxDecodedBytes: 2 * MB }).decoded(2 * MB))).status).toBe(413)
  })
})
