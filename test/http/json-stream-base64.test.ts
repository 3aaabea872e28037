import { describe, expect, it } from 'vitest'
import { Base64Decoder, Base64Payload, decodedRoom } from '../../src/http/json-stream/base64-decoder'

// The rules base64 uploads always had (one regex, then Buffer.from), to compare against.
const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[^;,]*)*;base64,/i
const BASE64 = /^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/
function reference(value: string): { bytes: Buffer; declaredType: string | null } | 'invalid' {
  const m = DATA_URL.exec(value)
  const payload = m ? value.slice(m[0].length) : value
  if (!BASE64.test(payload)) return 'invalid'
  return { bytes: Buffer.from(payload, 'base64'), declaredType: m?.[1]?.toLowerCase() ?? null }
}

/** Decodes `value` handed over in pieces cut at `cuts`. */
function decodePieces(value: string, cuts: number[]): { bytes: Buffer; declaredType: string | null } | 'invalid' {
  const payload = new Base64Payload()
  const out = Buffer.alloc(decodedRoom(value.length) + 16)
  let at = 0
  let from = 0
  for (const cut of [...cuts, value.length]) {
    at = payload.decode(value.slice(from, cut), out, at)
    from = cut
  }
  at = payload.finish(out, at)
  return payload.invalid ? 'invalid' : { bytes: out.subarray(0, at), declaredType: payload.declaredType }
}

function noise(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n)
  let x = seed
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31
    b[i] = x >> 16
  }
  return b
}

const everyCut = (value: string) => Array.from({ length: value.length + 1 }, (_, k) => [k])

describe('Base64Payload: same result as the regex and Buffer.from', () => {
  const png = noise(40, 7)
  it.each([
    ['standard', png.toString('base64')],
    ['URL-safe', png.toString('base64url')],
    ['mixed alphabets', `${png.toString('base64').slice(0, 20)}${png.toString('base64url').slice(20)}`],
    ['one = of padding', Buffer.from('hi').toString('base64')],
    ['two = of padding', Buffer.from('h').toString('base64')],
    ['no padding', Buffer.from('hi').toString('base64url')],
    ['a lone last character (ignored)', 'aGkhY'],
    ['whitespace everywhere', ' aG\nk h\r\nYQ\t==\n '],
    ['a vertical tab and form feed', 'aG\u000bkh\u000cYQ=='],
    ['=, then whitespace', 'aGk= \n'],
    ['a data URL', `data:image/png;base64,${png.toString('base64')}`],
    ['an upper-case data URL with parameters', 'DATA:Text/Plain;charset=utf-8;name=x;base64,aGk='],
    ['a data URL without a type', 'data:;base64,aGk='],
    ['a data URL with nothing after it', 'data:image/png;base64,'],
    ['a value shorter than "data:"', 'dat'],
    ['a value that starts like a data URL', 'datA'],
    ['empty', ''],
  ])('%s', (_name, value) => {
    const expected = reference(value)
    expect(expected).not.toBe('invalid')
    for (const [cut] of everyCut(value)) expect(decodePieces(value, [cut!])).toEqual(expected)
    expect(decodePieces(value, Array.from({ length: value.length }, (_, i) => i))).toEqual(expected)
  })

  it.each([
    ['a character outside both alphabets', 'aGk!aGk='],
    ['a non-ASCII character', 'aGké'],
    ['a character above Latin-1', 'aGk\u0141'],
    ['data after padding', 'aGk=aGk='],
    ['three = of padding', 'aA==='],
    ['whitespace between = signs', 'aA= ='],
    ['padding in the middle of a piece', 'aG=k'],
    ['a data URL without base64', 'data:image/png,aGk='],
    ['a data URL with a bad type', 'data:image png;base64,aGk='],
    ['"data:" then no comma', 'data:image/png;base64'],
    ['a NUL byte', 'aGk\u0000'],
  ])('rejects %s', (_name, value) => {
    expect(reference(value)).toBe('invalid')
    for (const [cut] of everyCut(value)) expect(decodePieces(value, [cut!])).toBe('invalid')
  })

  it('decodes megabytes in pieces of any size through the native path, both alphabets', () => {
    const bytes = noise(1024 * 1024 + 2, 3)
    const standard = bytes.toString('base64')
    const mixed = `${standard.slice(0, 500_000)}${bytes.toString('base64url').slice(500_000)}`
    for (const value of [`data:image/png;base64,${standard}`, bytes.toString('base64url'), standard.replace(/(.{76})/g, '$1\r\n'), standard.replace(/(.{1000})/g, '$1\u000b'), mixed]) {
      for (const step of [1000, 4096, 65_537, 300_001]) {
        const cuts = Array.from({ length: Math.floor(value.length / step) }, (_, i) => (i + 1) * step)
        const got = decodePieces(value, cuts)
        expect(got).not.toBe('invalid')
        expect(Buffer.compare((got as { bytes: Buffer }).bytes, bytes)).toBe(0)
      }
    }
  })

  it('finds an invalid character far into a long value', () => {
    const value = noise(300_000, 5).toString('base64')
    const bad = `${value.slice(0, 250_001)}*${value.slice(250_001)}`
    expect(decodePieces(bad, [100_000, 200_000, 300_000])).toBe('invalid')
  })
})

describe('Base64Decoder', () => {
  it('stays invalid once invalid and writes nothing more', () => {
    const d = new Base64Decoder()
    const out = new Uint8Array(32)
    expect(d.decode('aGk$', out, 0)).toBe(0)
    expect(d.invalid).toBe(true)
    expect(d.decode('aGVsbG8=', out, 0)).toBe(0)
    expect(d.finish(out, 0)).toBe(0)
  })

  it('never writes past decodedRoom', () => {
    for (const text of ['', 'a', 'aGk', 'aGk=', 'aGVsbG8gd29ybGQ', ' '.repeat(9)]) {
      const out = new Uint8Array(decodedRoom(text.length))
      const guard = new Uint8Array(out.length + 8).fill(0xaa)
      guard.set(out)
      const d = new Base64Payload()
      const end = d.finish(guard, d.decode(text, guard, 0))
      expect(end).toBeLessThanOrEqual(out.length)
      expect([...guard.subarray(out.length)].every((b) => b === 0xaa)).toBe(true)
    }
  })
})
