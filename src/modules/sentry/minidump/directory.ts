import type { ByteView, Location } from './byte-view'
import { hex } from './hex'
import { DIRECTORY_ENTRY_SIZE, FORMAT_VERSION, HEADER_SIZE, SIGNATURE, SIGNATURE_SWAPPED } from './minidump.format'
import { MinidumpError } from './minidump.errors'
import type { MinidumpHeader } from './minidump.types'

/** Directory entries read at most: real dumps hold a few dozen streams. */
export const MAX_STREAMS = 4096

export interface Directory {
  header: MinidumpHeader
  directoryRva: number
  /** The first stream of each type, by stream type. */
  streams: Map<number, Location>
}

/** Reads the header and the stream directory: signature, version, and every entry's range checked. */
export function readDirectory(v: ByteView): Directory {
  if (v.length < HEADER_SIZE) throw new MinidumpError(`a minidump starts with a ${HEADER_SIZE}-byte header; the file has ${v.length} bytes`)
  const signature = v.u32(0, 'header')
  if (signature === SIGNATURE_SWAPPED) throw new MinidumpError('big-endian minidumps are not supported')
  if (signature !== SIGNATURE) throw new MinidumpError('not a minidump: the file does not start with "MDMP"')
  const version = v.u32(4, 'header')
  if ((version & 0xffff) !== FORMAT_VERSION) throw new MinidumpError(`unknown minidump format version ${hex(version & 0xffff)}`)
  const streamCount = v.u32(8, 'header')
  const directoryRva = v.u32(12, 'header')
  if (streamCount > MAX_STREAMS) throw new MinidumpError(`the header lists ${streamCount} streams; at most ${MAX_STREAMS} are read`)
  if (directoryRva < HEADER_SIZE) throw new MinidumpError('the stream directory overlaps the header')
  const directorySize = streamCount * DIRECTORY_ENTRY_SIZE
  v.check(directoryRva, directorySize, 'stream directory')

  const streams = new Map<number, Location>()
  for (let i = 0; i < streamCount; i++) {
    const at = directoryRva + i * DIRECTORY_ENTRY_SIZE
    const type = v.u32(at, 'stream directory')
    const loc = v.location(at + 4, `stream ${i} (type ${hex(type)})`)
    if (!streams.has(type)) streams.set(type, loc)
  }
  return { header: { signature: 'MDMP', version, streamCount, timestamp: v.u32(20, 'header') }, directoryRva, streams }
}

/**
 * The streams the parser reads, checked not to overlap the header, the directory or each other: a
 * well-formed writer never does that, and a crafted dump that does is refused rather than read twice.
 */
export function checkLayout(dir: Directory, types: readonly number[]): void {
  const ranges: Array<{ name: string; start: number; end: number }> = [
    { name: 'the header', start: 0, end: HEADER_SIZE },
    { name: 'the stream directory', start: dir.directoryRva, end: dir.directoryRva + dir.header.streamCount * DIRECTORY_ENTRY_SIZE },
  ]
  for (const type of types) {
    const loc = dir.streams.get(type)
    if (loc && loc.size > 0) ranges.push({ name: `stream ${hex(type)}`, start: loc.rva, end: loc.rva + loc.size })
  }
  ranges.sort((a, b) => a.start - b.start)
  for (let i = 1; i < ranges.length; i++) {
    const [a, b] = [ranges[i - 1]!, ranges[i]!]
    if (b.start < a.end) throw new MinidumpError(`${b.name} overlaps ${a.name}`)
  }
}
