import { deflateSync } from 'node:zlib'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** A file to pack: name and contents. */
export interface PackedFile {
  name: string
  bytes: Uint8Array
}

export const FIXTURES = join(import.meta.dirname, '../fixtures/unreal')
/** A fixture upload's bytes (`unreal_crash`, `unreal_crash_apple`). */
export const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)))

const i32 = (value: number) => {
  const bytes = new Uint8Array(4)
  new DataView(bytes.buffer).setInt32(0, value, true)
  return bytes
}

/** A string as Unreal's `SerializeAsANSICharArray(Ar, 260)` writes it: length, bytes, NUL padding to 260. */
const ansi = (text: string) => {
  const raw = new TextEncoder().encode(text)
  const padded = new Uint8Array(Math.max(raw.length, 260))
  padded.set(raw)
  return [i32(padded.length), padded]
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/**
 * The uncompressed container CrashReportClient writes, in either layout, as CrashUpload.cpp and
 * symbolic-unreal's container.rs describe it: for the legacy one a placeholder header, the files, the
 * real header; for `CR1` the marker and one header before the files.
 */
export function writeContainer(files: PackedFile[], { layout = 'CR1', directoryName = 'UECC-Windows-TEST_0000' }: { layout?: 'CR1' | 'legacy'; directoryName?: string } = {}): Uint8Array {
  const body = files.flatMap((f, index) => [i32(index), ...ansi(f.name), i32(f.bytes.length), f.bytes])
  const header = (size: number) => concat([...ansi(directoryName), ...ansi(`${directoryName}.ue4crash`), i32(size), i32(files.length)])
  if (layout === 'CR1') return concat([new TextEncoder().encode('CR1'), header(0), ...body])
  const bodySize = body.reduce((n, p) => n + p.length, 0)
  return concat([header(0), ...body, header(header(0).length * 2 + bodySize)])
}

/** The upload CrashReportClient sends: the container, zlib-compressed. */
export const compress = (container: Uint8Array) => new Uint8Array(deflateSync(container, { level: 1 }))
