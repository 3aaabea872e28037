// Builds small zip archives by hand for the bundle reader's hostile-input tests: each entry may lie
// about its sizes or checksum, as a crafted upload would.
import { deflateRawSync } from 'node:zlib'

export interface ZipInput {
  name: string
  data: Uint8Array | string
  deflate?: boolean
  /** Written in the directory instead of the real uncompressed size. */
  claimedSize?: number
  claimedCrc?: number
}

const u16 = (n: number) => { const b = Buffer.alloc(2); b.writeUInt16LE(n); return b }
const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(n >>> 0); return b }

/** A zip of the entries, with `prefix` (e.g. the `SYSB` header) before it as sentry-cli writes bundles. */
export function buildZip(entries: ZipInput[], prefix: Uint8Array = new Uint8Array()): Uint8Array {
  const locals: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const raw = typeof e.data === 'string' ? Buffer.from(e.data) : Buffer.from(e.data)
    const body = e.deflate ? deflateRawSync(raw) : raw
    const name = Buffer.from(e.name)
    const crc = e.claimedCrc ?? Bun.hash.crc32(raw)
    const size = e.claimedSize ?? raw.length
    const method = e.deflate ? 8 : 0
    const local = Buffer.concat([u32(0x04034b50), u16(20), u16(0), u16(method), u16(0), u16(0), u32(crc), u32(body.length), u32(size), u16(name.length), u16(0), name, body])
    central.push(Buffer.concat([u32(0x02014b50), u16(20), u16(20), u16(0), u16(method), u16(0), u16(0), u32(crc), u32(body.length), u32(size), u16(name.length), u16(0), u16(0), u16(0), u16(0), u32(0), u32(offset), name]))
    locals.push(local)
    offset += local.length
  }
  const dir = Buffer.concat(central)
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(dir.length), u32(offset), u16(0)])
  return new Uint8Array(Buffer.concat([Buffer.from(prefix), ...locals, dir, end]))
}

/** The 8-byte header sentry-cli puts before a bundle's zip. */
export const SYSB_V2 = new Uint8Array([0x53, 0x59, 0x53, 0x42, 2, 0, 0, 0])

/** A manifest listing files as sentry-cli writes them. */
export function manifest(files: Record<string, { type: string; url: string; headers?: Record<string, string> }>, extra: Record<string, string> = {}): string {
  return JSON.stringify({ files, ...extra })
}
