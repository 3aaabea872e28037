import { SymError } from './sym.errors'

/**
 * The layout of a symbol index: a header (`GBSI`, version, section count, then each section's byte
 * offset and byte length) followed by the sections, each 4-byte aligned. The strings section is
 * UTF-8; every other section is 32-bit words holding fixed-size records sorted by address, so a
 * lookup is a binary search over a typed array and loading is taking views of the bytes.
 */
export const MAGIC = 0x49534247
export const VERSION = 1
/** A string or file id that is absent. */
export const NONE = 0xffffffff

/** The sections in file order, with the words in each record. */
export const SECTIONS = {
  strings: 1,
  stringOffsets: 1,
  /** os, arch, debug id, name, code id, code file: string ids. */
  meta: 6,
  /** file id, name. */
  files: 2,
  /** origin id, name, file id (older form) or NONE. */
  origins: 3,
  /** start, size, name, param size, first line, line count, first inline, inline count. */
  funcs: 8,
  /** start, size, line, file id. */
  lines: 4,
  /** depth, call line, call file id or NONE, origin id, first range, range count. */
  inlines: 6,
  /** start, size. */
  inlineRanges: 2,
  /** address, param size, name. */
  publics: 3,
  /** start, size, rules, first change, change count. */
  cfiInit: 5,
  /** address, rules. */
  cfiChanges: 2,
  /** start, size, prolog, epilog, param size, saved registers, locals, max stack, flags (1: program, 2: allocates ebp), program. */
  winFrameData: 10,
  winFpo: 10,
} as const

export type SectionName = keyof typeof SECTIONS
export const SECTION_NAMES = Object.keys(SECTIONS) as SectionName[]
export type WordSection = Exclude<SectionName, 'strings'>
export type Sections = Record<WordSection, Uint32Array> & { strings: Uint8Array }

const HEADER_WORDS = 3 + 2 * SECTION_NAMES.length
const pad4 = (n: number) => (n + 3) & ~3

/** Lays the sections out as one buffer. */
export function writeSections(sections: Sections): Uint8Array {
  const parts = SECTION_NAMES.map((name) => (name === 'strings' ? sections.strings : new Uint8Array(sections[name].buffer, sections[name].byteOffset, sections[name].byteLength)))
  let size = HEADER_WORDS * 4
  const offsets = parts.map((p) => {
    const at = size
    size += pad4(p.byteLength)
    return at
  })
  const out = new Uint8Array(size)
  const header = new Uint32Array(out.buffer, 0, HEADER_WORDS)
  header.set([MAGIC, VERSION, SECTION_NAMES.length])
  parts.forEach((p, i) => {
    header[3 + 2 * i] = offsets[i]!
    header[4 + 2 * i] = p.byteLength
    out.set(p, offsets[i]!)
  })
  return out
}

/** Views of each section of an index's bytes (copied once when they are not 4-byte aligned); SymError when they are not an index. */
export function readSections(input: Uint8Array): Sections {
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice()
  if (bytes.byteLength < HEADER_WORDS * 4) throw new SymError('not a symbol index: too short')
  const header = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS)
  if (header[0] !== MAGIC) throw new SymError('not a symbol index: wrong magic')
  if (header[1] !== VERSION || header[2] !== SECTION_NAMES.length) throw new SymError(`symbol index version ${header[1]} is not ${VERSION}: rebuild it from the .sym`)
  const out = {} as Sections
  SECTION_NAMES.forEach((name, i) => {
    const [at, length] = [header[3 + 2 * i]!, header[4 + 2 * i]!]
    if (at % 4 !== 0 || at + length > bytes.byteLength) throw new SymError(`symbol index section ${name} lies outside the index`)
    if (name === 'strings') {
      out.strings = bytes.subarray(at, at + length)
      return
    }
    if (length % (4 * SECTIONS[name]) !== 0) throw new SymError(`symbol index section ${name} is not whole records`)
    out[name] = new Uint32Array(bytes.buffer, bytes.byteOffset + at, length / 4)
  })
  return out
}
