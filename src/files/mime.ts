import { badRequest } from '../http/errors'

/** Kinds of upload, each with the content it may hold. */
export type UploadKind = 'attachment' | 'image' | 'replay' | 'crash' | 'debug-file'

const signatures: [string, (b: Uint8Array) => boolean][] = [
  ['image/png', (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => ascii(b, 0, 4) === 'GIF8'],
  ['image/webp', (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP'],
  ['image/bmp', (b) => b[0] === 0x42 && b[1] === 0x4d],
  ['video/webm', (b) => b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3],
  ['video/mp4', (b) => ascii(b, 4, 8) === 'ftyp'],
  ['video/quicktime', (b) => ascii(b, 4, 8) === 'moov'],
  // Minidumps from crash reporters (Breakpad, Crashpad, Unreal): kept for download, never shown inline.
  ['application/x-minidump', (b) => ascii(b, 0, 4) === 'MDMP'],
]

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, to))
}

/** True when the bytes read as UTF-8 text with no control characters other than whitespace. */
function looksLikeText(b: Uint8Array): boolean {
  const sample = b.subarray(0, 4096)
  for (const c of sample) if (c === 0 || (c < 9 && c !== 0) || (c > 13 && c < 32 && c !== 27)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.length < b.length ? trimPartialUtf8(sample) : sample)
    return true
  } catch {
    return false
  }
}

// A 4 KB sample may end inside a multi-byte character; drop the tail of such a sequence.
function trimPartialUtf8(b: Uint8Array): Uint8Array {
  let end = b.length
  for (let i = b.length - 1; i >= Math.max(0, b.length - 4); i--) {
    if ((b[i]! & 0xc0) === 0x80) continue
    if (b[i]! >= 0xc0) end = i
    break
  }
  return b.subarray(0, end)
}

/** The content type read from the bytes themselves (magic numbers, then text/JSON), or null. */
export function sniffMime(head: Uint8Array): string | null {
  for (const [mime, test] of signatures) if (head.length >= 12 && test(head)) return mime
  if (head.length === 0 || !looksLikeText(head)) return null
  const first = new TextDecoder().decode(head.subarray(0, 64)).trimStart()[0]
  return first === '{' || first === '[' ? 'application/json' : 'text/plain'
}

/** The type of a file kept as bytes, its content none of the known kinds (allowed for crash files only). */
const BINARY = 'application/octet-stream'

const allowedFor: Record<UploadKind, (mime: string) => boolean> = {
  attachment: (m) => m.startsWith('image/') || m.startsWith('video/') || m.startsWith('text/') || m === 'application/json',
  image: (m) => m.startsWith('image/'),
  replay: (m) => m === 'video/webm' || m === 'video/mp4' || m === 'image/gif',
  // What crash reporters send beside the crash: the dump, logs, view hierarchies, screenshots, and
  // any other file an SDK attaches (a save game, a binary log), kept as bytes: it is team-only and
  // always served as a download (modules/attachments/file-download.ts).
  crash: (m) => m === 'application/x-minidump' || m.startsWith('image/') || m.startsWith('video/') || m.startsWith('text/') || m === 'application/json' || m === BINARY,
  // Symbols, binaries and source bundles from sentry-cli: any bytes, never served (team-only, read by symbolication).
  'debug-file': () => true,
}

const kindWords: Record<UploadKind, string> = {
  attachment: 'text, image, video or JSON',
  image: 'an image',
  replay: 'WebM, MP4 or GIF',
  crash: 'a minidump, text, image, video, JSON or other bytes',
  'debug-file': 'any file',
}

/**
 * Decides the stored content type of an upload: the sniffed type must be allowed for the kind,
 * and a declared type, when given, must agree with it (text may be declared as any text type or JSON).
 * A kind that allows BINARY keeps content of no known type as BINARY, whatever other type is declared.
 */
export function checkUpload(kind: UploadKind, head: Uint8Array, declared?: string | null): string {
  const sniffed = sniffMime(head) ?? (allowedFor[kind](BINARY) ? BINARY : null)
  if (!sniffed || !allowedFor[kind](sniffed)) throw badRequest(`file type not allowed: must be ${kindWords[kind]}`)
  const d = declared?.split(';')[0]?.trim().toLowerCase()
  if (!d || d === BINARY) return sniffed
  // A type named for bytes that match no known kind (application/zip, x-ue4-stats) is the client's word only.
  if (sniffed === BINARY && !allowedFor[kind](d)) return BINARY
  if (!allowedFor[kind](d)) throw badRequest(`file type not allowed: must be ${kindWords[kind]}`)
  const textual = (m: string) => m.startsWith('text/') || m === 'application/json'
  if (textual(sniffed) && textual(d)) return d
  if (d !== sniffed && !(d === 'image/jpg' && sniffed === 'image/jpeg')) {
    throw badRequest(`file content does not match its declared type ${d}`)
  }
  return sniffed
}
