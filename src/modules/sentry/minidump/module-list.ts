import type { ByteView, Location } from './byte-view'
import { readCodeView } from './codeview'
import { hex } from './hex'
import { type ExceptionFamily, FIXED_FILE_INFO_SIGNATURE, FIXED_FILE_INFO_VERSION, MODULE_SIZE } from './minidump.format'
import { MinidumpError } from './minidump.errors'
import type { MinidumpModule } from './minidump.types'
import { readMinidumpString } from './text'

/** Modules read at most; a process with more is hostile or broken, and the rest are left out. */
export const MAX_MODULES = 4096

/** A module as read, with its base as a number for finding the module of an address. */
export interface ModuleEntry {
  module: MinidumpModule
  base: bigint
  end: bigint
}

/**
 * Where the entries of a list stream start. Each list is a 32-bit count and then the entries; some
 * 64-bit writers put 4 bytes of padding after the count, which shows as a stream exactly 4 bytes
 * longer than count and entries with those bytes zero. The entries must fit in the stream.
 */
export function listEntries(v: ByteView, loc: Location, entrySize: number, what: string): { count: number; first: number } {
  const count = v.u32(loc.rva, what)
  const size = count * entrySize
  if (loc.size === 8 + size && v.u32(loc.rva + 4, what) === 0) return { count, first: loc.rva + 8 }
  if (loc.size < 4 + size) throw new MinidumpError(`${what}: ${count} entries of ${entrySize} bytes do not fit in a ${loc.size}-byte stream`)
  return { count, first: loc.rva + 4 }
}

const baseName = (path: string) => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1)

/** VS_FIXEDFILEINFO's file version: four 16-bit parts on Windows and Apple; other writers store four 32-bit numbers (file and product version). */
function fixedFileVersion(v: ByteView, at: number, family: ExceptionFamily): string | null {
  const u = (o: number) => v.u32(at + o, 'module version')
  if (u(0) !== FIXED_FILE_INFO_SIGNATURE || u(4) !== FIXED_FILE_INFO_VERSION) return null
  const [hi, lo] = [u(8), u(12)]
  if (family === 'windows' || family === 'apple') return [hi >>> 16, hi & 0xffff, lo >>> 16, lo & 0xffff].join('.')
  return [hi, lo, u(16), u(20)].join('.')
}

/** Reads one MINIDUMP_MODULE (108 bytes at `at`) with its name and CodeView record. */
function readModule(v: ByteView, at: number, family: ExceptionFamily): ModuleEntry {
  const base = v.u64(at, 'module')
  const size = v.u32(at + 8, 'module')
  const timestamp = v.u32(at + 16, 'module')
  const path = readMinidumpString(v, v.u32(at + 20, 'module'), 'module name')
  const cvLoc = v.location(at + 76, 'module CodeView record')
  const cv = cvLoc.size ? readCodeView(v, cvLoc) : null
  const windowsCodeId = `${timestamp.toString(16).toUpperCase().padStart(8, '0')}${size.toString(16)}`
  const codeId =
    cv?.kind === 'elf' ? cv.buildId
    : family === 'apple' ? (cv?.guid?.toLowerCase() ?? null)
    : family === 'windows' ? windowsCodeId
    : null
  return {
    module: {
      path,
      name: baseName(path),
      baseAddress: hex(base),
      size,
      version: fixedFileVersion(v, at + 24, family),
      codeId,
      debugId: cv?.debugId ?? null,
      debugFile: cv ? (cv.kind === 'elf' ? path : cv.debugFile || null) : null,
    },
    base,
    end: base + BigInt(size),
  }
}

/** Reads MINIDUMP_MODULE_LIST: the first MAX_MODULES modules, and whether there were more. */
export function readModuleList(v: ByteView, loc: Location, family: ExceptionFamily): { entries: ModuleEntry[]; truncated: boolean } {
  const { count, first } = listEntries(v, loc, MODULE_SIZE, 'module list')
  const entries: ModuleEntry[] = []
  for (let i = 0; i < Math.min(count, MAX_MODULES); i++) entries.push(readModule(v, first + i * MODULE_SIZE, family))
  return { entries, truncated: count > MAX_MODULES }
}

/** The module whose range holds `address` (the first, should ranges overlap). */
export function moduleAt(entries: readonly ModuleEntry[], address: bigint): ModuleEntry | undefined {
  return entries.find((e) => address >= e.base && address < e.end)
}
