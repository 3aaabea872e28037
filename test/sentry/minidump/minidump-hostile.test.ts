// Uploads that are not readable minidumps: each gets a MinidumpError saying what is wrong, never
// another exception. The files are real fixtures or builder dumps with one field rewritten.
import { describe, expect, it } from 'vitest'
import { MinidumpError } from '../../../src/modules/sentry/minidump/minidump.errors'
import { parseMinidump } from '../../../src/modules/sentry/minidump/minidump-parser'
import { amd64Context, buildMinidump } from './minidump-builder'
import { fixture, REAL_DUMPS } from './fixture'

/** A copy of `bytes` with 32-bit `value` written at `at`. */
function poke(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const copy = bytes.slice()
  new DataView(copy.buffer).setUint32(at, value >>> 0, true)
  return copy
}

/** Offset of the directory entry of stream `type` (its type field; size at +4, rva at +8). */
function entryOf(bytes: Uint8Array, type: number): number {
  const v = new DataView(bytes.buffer, bytes.byteOffset)
  const [count, rva] = [v.getUint32(8, true), v.getUint32(12, true)]
  for (let i = 0; i < count; i++) if (v.getUint32(rva + i * 12, true) === type) return rva + i * 12
  throw new Error(`no stream ${type}`)
}
const rvaOf = (bytes: Uint8Array, type: number) => new DataView(bytes.buffer).getUint32(entryOf(bytes, type) + 8, true)

const base = buildMinidump({
  arch: 9,
  exception: { code: 0xc0000005, context: amd64Context(0x401000n) },
  modules: [{ base: 0x400000n, size: 0x1000, path: 'C:\\game.exe', cv: new Uint8Array(40).fill(0x41) }],
  threads: 2,
})
const MODULES = 4
const EXCEPTION = 6
const SYSTEM = 7
const moduleAt = rvaOf(base, MODULES) + 4

const cases: Array<[string, Uint8Array, RegExp]> = [
  ['an empty file', new Uint8Array(0), /32-byte header; the file has 0 bytes/],
  ['a zip archive', new TextEncoder().encode('PK\u0003\u0004'.padEnd(64, '\0')), /not a minidump/],
  ['a big-endian dump', poke(base, 0, 0x4d444d50), /big-endian/],
  ['an unknown format version', poke(base, 4, 0x1234), /format version 0x1234/],
  ['four billion streams', poke(base, 8, 0xffffffff), /lists 4294967295 streams/],
  ['a directory past the end', poke(base, 12, base.length - 4), /stream directory: .* lie outside the/],
  ['a directory inside the header', poke(base, 12, 8), /directory overlaps the header/],
  ['a stream past the end', poke(base, entryOf(base, SYSTEM) + 8, 0xfffffff0), /stream .* \(type 0x7\): 56 bytes at offset 0xfffffff0 lie outside/],
  ['a stream longer than the file', poke(base, entryOf(base, MODULES) + 4, 0x7fffffff), /type 0x4\): 2147483647 bytes/],
  ['two streams over each other', poke(base, entryOf(base, MODULES) + 8, rvaOf(base, SYSTEM)), /overlaps/],
  ['a stream over the directory', poke(base, entryOf(base, SYSTEM) + 8, 32), /overlaps the stream directory|the stream directory overlaps/],
  ['a module count that cannot fit', poke(base, rvaOf(base, MODULES), 0x0fffffff), /module list: 268435455 entries of 108 bytes do not fit/],
  ['a thread count that cannot fit', poke(base, rvaOf(base, 3), 20_001), /thread list: 20001 entries/],
  ['a module name past the end', poke(base, moduleAt + 20, base.length + 100), /module name: 4 bytes at offset/],
  ['a module name longer than the file', poke(base, new DataView(base.buffer).getUint32(moduleAt + 20, true), 0x7ffffff0), /module name: 2147483632 bytes/],
  ['an OS version string longer than the file', poke(base, new DataView(base.buffer).getUint32(rvaOf(base, SYSTEM) + 24, true), 0x7ffffff0), /system info CSD version/],
  ['a CodeView record past the end', poke(base, moduleAt + 80, 0xffffff00), /module CodeView record/],
  ['an exception stream cut short', poke(base, entryOf(base, EXCEPTION) + 4, 100), /exception stream is 100 bytes, shorter than the 168/],
  ['a system info stream cut short', poke(base, entryOf(base, SYSTEM) + 4, 20), /system info stream is 20 bytes/],
  ['a thread context past the end', poke(base, rvaOf(base, EXCEPTION) + 164, 0xfffff000), /exception thread context/],
  ['rust-minidump\'s fuzzed invalid-range.dmp', fixture('invalid-range.dmp'), /overlaps the header/],
  ['rust-minidump\'s fuzzed invalid-record-count.dmp', fixture('invalid-record-count.dmp'), /overlaps the header/],
]

describe('unreadable minidumps', () => {
  it.each(cases)('%s: a MinidumpError with a clear message', (_name, bytes, message) => {
    let error: unknown
    try {
      parseMinidump(bytes)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(MinidumpError)
    expect((error as Error).message).toMatch(message)
  })

  it('an odd-length UTF-16 string', () => {
    // The system info's CSD string is written right after the system info stream.
    const csd = new DataView(base.buffer).getUint32(rvaOf(base, SYSTEM) + 24, true)
    expect(() => parseMinidump(poke(base, csd, 3))).toThrow(/cannot be 3 bytes long/)
  })

  it.each(REAL_DUMPS)('%s cut anywhere in its first 4 KB is refused or read, never crashes', (name) => {
    const bytes = fixture(name)
    for (let length = 0; length < Math.min(bytes.length, 4096); length += 7) {
      try {
        parseMinidump(bytes.subarray(0, length))
      } catch (err) {
        expect(err).toBeInstanceOf(MinidumpError)
      }
    }
  })
})
