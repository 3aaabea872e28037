import type { ByteView } from './byte-view'
import { MinidumpError } from './minidump.errors'

/** Bytes of one string read at most: paths and OS strings are short, and a hostile length is up to 4 GB. */
export const MAX_STRING_BYTES = 4096

const utf16 = new TextDecoder('utf-16le')
const utf8 = new TextDecoder('utf-8')

/** Text up to the first NUL, with invalid sequences replaced rather than thrown. */
function decode(decoder: TextDecoder, bytes: Uint8Array): string {
  const text = decoder.decode(bytes)
  const nul = text.indexOf('\0')
  return nul === -1 ? text : text.slice(0, nul)
}

/**
 * A MINIDUMP_STRING at `rva`: a 32-bit byte length, then UTF-16LE. The whole string must lie in the
 * file; at most MAX_STRING_BYTES of it are decoded.
 */
export function readMinidumpString(v: ByteView, rva: number, what: string): string {
  const length = v.u32(rva, what)
  v.check(rva + 4, length, what)
  if (length % 2 !== 0) throw new MinidumpError(`${what}: a UTF-16 string cannot be ${length} bytes long`)
  return decode(utf16, v.slice(rva + 4, Math.min(length, MAX_STRING_BYTES), what))
}

/** A NUL-terminated 8-bit string inside `bytes` (the CodeView record's file name), at most MAX_STRING_BYTES. */
export function readCString(bytes: Uint8Array): string {
  return decode(utf8, bytes.subarray(0, MAX_STRING_BYTES))
}

/** Text of a stream that holds a file as Breakpad copied it (`/etc/lsb-release`, `/proc/cpuinfo`). */
export function readText(bytes: Uint8Array): string {
  return decode(utf8, bytes)
}
