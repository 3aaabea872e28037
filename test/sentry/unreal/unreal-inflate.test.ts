import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { MAX_DECODED_BYTES, parseUnrealCrash } from '../../../src/modules/sentry/unreal/unreal-crash'
import { UnrealCrashError } from '../../../src/modules/sentry/unreal/unreal-errors'
import { inflateCapped } from '../../../src/modules/sentry/unreal/unreal-inflate'
import { fixture } from './container-writer'

const MB = 1024 * 1024

/** A zlib stream of `megabytes` MB of zeros, compressed piece by piece (never the whole output in memory). */
async function zlibBomb(megabytes: number): Promise<Uint8Array> {
  const zeros = new Uint8Array(MB)
  const stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(controller) {
      if (megabytes-- > 0) controller.enqueue(zeros)
      else controller.close()
    },
  }).pipeThrough(new CompressionStream('deflate'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('accepted')
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(UnrealCrashError)
      return error as UnrealCrashError
    },
  )

describe('inflateCapped', () => {
  it('refuses a zip bomb once the output passes the cap, in moments', async () => {
    const bomb = await zlibBomb(400)
    expect(bomb.length).toBeLessThan(MB) // ~400 KB on the wire
    const started = performance.now()
    const error = await refusal(parseUnrealCrash(bomb))
    expect(error).toMatchObject({ reason: 'too_large', status: 413, message: `the crash upload inflates past ${MAX_DECODED_BYTES} bytes` })
    expect(performance.now() - started).toBeLessThan(5000)
  })

  it('stops at a small cap as soon as the output passes it', async () => {
    const error = await refusal(inflateCapped(await zlibBomb(64), MB))
    expect(error.reason).toBe('too_large')
  })

  it('inflates exactly up to the cap', async () => {
    const data = new Uint8Array(3 * MB + 17).fill(7)
    const inflated = await inflateCapped(new Uint8Array(deflateSync(data)), data.length)
    expect(inflated.length).toBe(data.length)
    expect(inflated.every((b) => b === 7)).toBe(true)
  })

  it.each([
    ['an empty body', new Uint8Array(0), 'empty', 'the crash upload is empty'],
    ['one byte', new Uint8Array([0]), 'bad_compression', /^the crash upload is not a complete zlib stream/],
    ['sixteen zero bytes', new Uint8Array(16), 'bad_compression', /^the crash upload is not a complete zlib stream/],
    ['a truncated upload', fixture('unreal_crash').subarray(0, 20_000), 'bad_compression', /^the crash upload is not a complete zlib stream/],
    ['gzip instead of zlib', new Uint8Array(gzipSync(fixture('unreal_crash'))), 'bad_compression', /^the crash upload is not a complete zlib stream/],
    ['raw deflate instead of zlib', new Uint8Array(deflateRawSync(new Uint8Array(100))), 'bad_compression', /^the crash upload is not a complete zlib stream/],
  ])('refuses %s with 400', async (_, body, reason, message) => {
    const error = await refusal(parseUnrealCrash(body))
    expect(error).toMatchObject({ reason, status: 400 })
    expect(error.message).toMatch(message)
  })

  it('refuses a corrupted byte in the middle (the checksum or the data breaks)', async () => {
    const body = fixture('unreal_crash')
    body[5000] = body[5000]! ^ 0xff
    expect((await refusal(parseUnrealCrash(body))).reason).toBe('bad_compression')
  })
})
