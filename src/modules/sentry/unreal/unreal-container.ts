import { UnrealCrashError } from './unreal-errors'

/** What a file of the container is, by its name or its first bytes (as symbolic-unreal tells them apart). */
export type UnrealFileKind = 'context' | 'config' | 'log' | 'minidump' | 'apple_crash_report' | 'other'

/** One file of a crash container; `bytes` is a view into the decoded upload, not a copy. */
export interface UnrealFile {
  /** Position Unreal gave it (0, 1, 2… as written). */
  index: number
  /** A plain file name: never empty, never a path, no control characters. */
  name: string
  bytes: Uint8Array
  kind: UnrealFileKind
}

export interface UnrealContainer {
  layout: 'CR1' | 'legacy'
  /** The crash's folder on the player's machine, e.g. `UE4CC-Windows-379993BB…_0000` (may be empty). */
  directoryName: string
  /** `<directoryName>.ue4crash` as Unreal names the upload. */
  fileName: string
  files: UnrealFile[]
}

/** More files than Unreal ever sends (context, config, log, dump, a few diagnostics) is refused. */
export const MAX_CONTAINER_FILES = 100
/** Unreal pads names to 260 characters (Windows MAX_PATH); a longer name field is not from Unreal. */
const MAX_NAME_BYTES = 1024
const MAX_NAME_CHARS = 260
const utf8 = new TextDecoder('utf-8')

/**
 * Unpacks the decoded body of an Unreal crash upload. Two layouts exist, both little-endian, strings as
 * an int32 byte count then that many bytes, NUL-padded to 260 (Unreal's `SerializeAsANSICharArray(Ar, 260)`),
 * file data as an int32 byte count then the bytes:
 * - `CR1` (newer engines, since Epic's commit a0471b7): the marker, one header (directory name, file name, uncompressed size,
 *   file count), then per file its index, name and data.
 * - legacy (older engines): a placeholder header, the files, then the real header; the file count is
 *   therefore read from the last four bytes.
 * Anything that does not add up (lengths past the end, bytes left over, a count over
 * MAX_CONTAINER_FILES, a name that is a path) is an UnrealCrashError.
 */
export function unpackContainer(data: Uint8Array): UnrealContainer {
  const cursor = new Cursor(data)
  const cr1 = data.length >= 3 && data[0] === 0x43 && data[1] === 0x52 && data[2] === 0x31
  let header: Header
  let files: UnrealFile[]
  if (cr1) {
    cursor.offset = 3
    header = readHeader(cursor)
    files = readFiles(cursor, header.fileCount)
  } else {
    if (data.length < 4) throw bad(`the crash container is only ${data.length} bytes long`)
    const fileCount = cursor.view.getInt32(data.length - 4, true)
    readHeader(cursor)
    files = readFiles(cursor, fileCount)
    header = readHeader(cursor)
  }
  if (cursor.offset !== data.length) throw bad(`the crash container has ${data.length - cursor.offset} bytes after its last file`)
  return { layout: cr1 ? 'CR1' : 'legacy', directoryName: header.directoryName, fileName: header.fileName, files }
}

interface Header {
  directoryName: string
  fileName: string
  fileCount: number
}

function readHeader(cursor: Cursor): Header {
  const directoryName = cursor.ansi('the directory name')
  const fileName = cursor.ansi('the container name')
  cursor.i32('the uncompressed size')
  return { directoryName, fileName, fileCount: cursor.i32('the file count') }
}

function readFiles(cursor: Cursor, count: number): UnrealFile[] {
  if (count < 0 || count > MAX_CONTAINER_FILES) throw bad(`the crash container claims ${count} files (at most ${MAX_CONTAINER_FILES} are accepted)`)
  // Each file takes at least 12 bytes (index, name length, data length): a count that cannot fit is refused before the loop.
  if (count * 12 > cursor.remaining) throw bad(`the crash container claims ${count} files but has only ${cursor.remaining} bytes left`)
  const files: UnrealFile[] = []
  for (let i = 0; i < count; i++) {
    const index = cursor.i32(`file ${i}'s index`)
    const name = checkedName(cursor.ansi(`file ${i}'s name`), i)
    const bytes = cursor.bytes(cursor.i32(`file ${i}'s length`), `file ${i}'s data`)
    files.push({ index, name, bytes, kind: kindOf(name, bytes) })
  }
  return files
}

/** The name as a plain file name (Unreal writes `FPaths::GetCleanFilename`), else the whole upload is refused. */
function checkedName(name: string, i: number): string {
  const plain = name.length > 0 && name.length <= MAX_NAME_CHARS && name !== '.' && name !== '..' && !/[/\\\x00-\x1f\x7f]/.test(name)
  if (!plain) throw bad(`file ${i} has the name ${JSON.stringify(name.slice(0, 60)).slice(0, 100)}, which is not a plain file name`)
  return name
}

const startsWith = (bytes: Uint8Array, ascii: string) => bytes.length >= ascii.length && [...ascii].every((c, i) => bytes[i] === c.charCodeAt(0))

function kindOf(name: string, bytes: Uint8Array): UnrealFileKind {
  const lower = name.toLowerCase()
  if (lower === 'crashcontext.runtime-xml') return 'context'
  if (lower === 'crashreportclient.ini') return 'config'
  if (lower.endsWith('.log')) return 'log'
  // By content, not name: Unreal's Mac reporter names its Apple crash report `minidump.dmp`.
  if (startsWith(bytes, 'MDMP')) return 'minidump'
  if (startsWith(bytes, 'Incident Identifier:')) return 'apple_crash_report'
  return 'other'
}

const bad = (message: string) => new UnrealCrashError('bad_container', message)

/** Reads the little-endian fields in order, refusing any read past the end. */
class Cursor {
  readonly view: DataView
  offset = 0

  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  }

  get remaining() {
    return this.data.length - this.offset
  }

  i32(what: string): number {
    this.need(4, what)
    const value = this.view.getInt32(this.offset, true)
    this.offset += 4
    return value
  }

  bytes(length: number, what: string): Uint8Array {
    if (length < 0) throw bad(`${what} has a negative length (${length})`)
    this.need(length, what)
    const view = this.data.subarray(this.offset, this.offset + length)
    this.offset += length
    return view
  }

  /** A length-prefixed 8-bit string up to its first NUL (the rest is Unreal's padding), as a C string reads. */
  ansi(what: string): string {
    const length = this.i32(`${what}'s length`)
    if (length > MAX_NAME_BYTES) throw bad(`${what} is ${length} bytes long (at most ${MAX_NAME_BYTES})`)
    const raw = this.bytes(length, what)
    const nul = raw.indexOf(0)
    return utf8.decode(nul === -1 ? raw : raw.subarray(0, nul))
  }

  private need(length: number, what: string) {
    if (length > this.remaining) throw bad(`the crash container ends inside ${what} (needs ${length} bytes at offset ${this.offset}, ${this.remaining} left)`)
  }
}
