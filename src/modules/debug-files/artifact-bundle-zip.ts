import { zlib } from '../../lib/zlib'
import { ArtifactBundleError } from './artifact-bundle.errors'

/** One file of the archive as its central directory lists it. */
export interface ZipEntry {
  name: string
  method: number
  crc32: number
  compressedSize: number
  size: number
  localHeaderOffset: number
}

/** What the reader refuses to go past. */
export interface ZipLimits {
  /** Most entries in one archive. */
  maxEntries: number
  /** Largest central directory read into memory. */
  maxDirectoryBytes: number
  /** Largest entry inflated; a bigger one (declared or actual) is refused, never inflated whole. */
  maxEntryBytes: number
}

/** Limits for a bundle: room for big games' maps, none for a bomb. */
export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 20_000, maxDirectoryBytes: 8 * 1024 * 1024, maxEntryBytes: 64 * 1024 * 1024 }

const EOCD_SIG = 0x06054b50
const CDH_SIG = 0x02014b50
const LFH_SIG = 0x04034b50
const EOCD_MIN = 22
const MAX_COMMENT = 0xffff
const STORED = 0
const DEFLATED = 8

/** Bytes [start, end) of the blob; only that range is read (a Bun.file slice reads from disk). */
async function range(blob: Blob, start: number, end: number): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(start, end).arrayBuffer())
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength)

/** Why a name would reach outside the archive (absolute, a drive, a `..` segment, a NUL), or null. */
export function unsafeEntryName(name: string): string | null {
  if (name.includes('\0')) return 'contains a NUL byte'
  if (/^[/\\]/.test(name) || /^[A-Za-z]:/.test(name)) return 'is an absolute path'
  if (name.split(/[/\\]/).includes('..')) return 'climbs out with ".."'
  return null
}

/**
 * A zip archive read through its central directory: the directory alone at open, each entry only
 * when asked for, inflated with a cap. Data before the archive (the `SYSB` header of a Sentry
 * bundle) is allowed: offsets are corrected by where the directory really sits.
 */
export class ZipArchive {
  private constructor(
    private readonly blob: Blob,
    private readonly shift: number,
    readonly entries: ReadonlyMap<string, ZipEntry>,
    private readonly limits: ZipLimits,
  ) {}

  /** Reads the central directory of `blob`; throws ArtifactBundleError when it is not a well-formed zip. */
  static async open(blob: Blob, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ZipArchive> {
    const tailStart = Math.max(0, blob.size - (EOCD_MIN + MAX_COMMENT))
    const tail = await range(blob, tailStart, blob.size)
    const tv = view(tail)
    let at = -1
    for (let i = tail.length - EOCD_MIN; i >= 0; i--) {
      if (tv.getUint32(i, true) === EOCD_SIG) { at = i; break }
    }
    if (at < 0) throw new ArtifactBundleError('not a zip archive (no end of central directory)')
    const count = tv.getUint16(at + 10, true)
    const dirSize = tv.getUint32(at + 12, true)
    const dirOffset = tv.getUint32(at + 16, true)
    if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) throw new ArtifactBundleError('zip64 archives are not supported')
    if (count > limits.maxEntries) throw new ArtifactBundleError(`${count} files is more than the ${limits.maxEntries} a bundle may hold`)
    if (dirSize > limits.maxDirectoryBytes) throw new ArtifactBundleError('the central directory is too large')
    const dirStart = tailStart + at - dirSize
    if (dirStart < 0) throw new ArtifactBundleError('the central directory lies outside the file')
    const shift = dirStart - dirOffset
    if (shift < 0) throw new ArtifactBundleError('the central directory offset lies outside the file')
    const dir = await range(blob, dirStart, dirStart + dirSize)
    return new ZipArchive(blob, shift, readDirectory(dir, count, dirStart), limits)
  }

  /** The entry's bytes, inflated and checked against its CRC; throws for unknown, oversized or corrupt entries. */
  async read(name: string): Promise<Uint8Array> {
    const e = this.entries.get(name)
    if (!e) throw new ArtifactBundleError(`no file named ${JSON.stringify(name)} in the archive`)
    const max = this.limits.maxEntryBytes
    if (e.size > max) throw new ArtifactBundleError(`${name} is ${e.size} bytes, more than the ${max} allowed`)
    if (e.method !== STORED && e.method !== DEFLATED) throw new ArtifactBundleError(`${name} uses compression method ${e.method} (only stored and deflate are read)`)
    const headerAt = this.shift + e.localHeaderOffset
    const header = await range(this.blob, headerAt, headerAt + 30)
    if (header.length < 30 || view(header).getUint32(0, true) !== LFH_SIG) throw new ArtifactBundleError(`${name}: no local header where the directory points`)
    const dataAt = headerAt + 30 + view(header).getUint16(26, true) + view(header).getUint16(28, true)
    if (dataAt + e.compressedSize > this.blob.size) throw new ArtifactBundleError(`${name}: its data runs past the end of the file`)
    // A deflate stream never needs much more room than its output: a bigger one is not what it says.
    if (e.compressedSize > max + 1024 * 1024) throw new ArtifactBundleError(`${name}: compressed data larger than allowed`)
    const raw = await range(this.blob, dataAt, dataAt + e.compressedSize)
    const out = e.method === STORED ? raw : inflateCapped(raw, e.size, name)
    if (out.length !== e.size) throw new ArtifactBundleError(`${name}: ${out.length} bytes where the directory says ${e.size}`)
    if (Bun.hash.crc32(out) !== e.crc32) throw new ArtifactBundleError(`${name}: checksum mismatch (corrupt archive)`)
    return out
  }
}

/** Inflates at most `size` bytes: output past the declared size (a lying header, a bomb) stops the inflate. */
function inflateCapped(raw: Uint8Array, size: number, name: string): Uint8Array {
  try {
    return zlib().inflateRawSync(raw, { maxOutputLength: Math.max(1, size) })
  } catch (err) {
    const code = (err as { code?: string }).code
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new ArtifactBundleError(`${name}: inflates past its declared ${size} bytes`)
    throw new ArtifactBundleError(`${name}: corrupt deflate data`)
  }
}

/** The central directory's records, each checked to lie inside the directory. */
function readDirectory(dir: Uint8Array, count: number, dirStart: number): Map<string, ZipEntry> {
  const dv = view(dir)
  const entries = new Map<string, ZipEntry>()
  const decoder = new TextDecoder('utf-8', { fatal: false })
  let p = 0
  for (let i = 0; i < count; i++) {
    if (p + 46 > dir.length || dv.getUint32(p, true) !== CDH_SIG) throw new ArtifactBundleError(`central directory record ${i} is damaged (at offset ${dirStart + p})`)
    const flags = dv.getUint16(p + 8, true)
    const nameLen = dv.getUint16(p + 28, true)
    const next = p + 46 + nameLen + dv.getUint16(p + 30, true) + dv.getUint16(p + 32, true)
    if (next > dir.length) throw new ArtifactBundleError(`central directory record ${i} runs past the directory`)
    const name = decoder.decode(dir.subarray(p + 46, p + 46 + nameLen))
    const unsafe = unsafeEntryName(name)
    if (unsafe) throw new ArtifactBundleError(`the entry ${JSON.stringify(name.slice(0, 200))} ${unsafe}`)
    if (flags & 1) throw new ArtifactBundleError(`${name} is encrypted`)
    if (entries.has(name)) throw new ArtifactBundleError(`${name} appears twice`)
    entries.set(name, {
      name,
      method: dv.getUint16(p + 10, true),
      crc32: dv.getUint32(p + 16, true),
      compressedSize: dv.getUint32(p + 20, true),
      size: dv.getUint32(p + 24, true),
      localHeaderOffset: dv.getUint32(p + 42, true),
    })
    p = next
  }
  return entries
}
