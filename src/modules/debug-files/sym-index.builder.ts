import { NONE, SECTIONS, type Sections, writeSections, type WordSection } from './sym-index.format'
import type { SymSource } from './sym-lines'
import { readSym, readSymSync, type SymReadHooks, type SymReadReport } from './sym.reader'
import type { SymRecord } from './sym.types'
import { sortRecords, U32List } from './u32-list'

const U32_MAX = 0xffffffff
/** Sections searched by address (or id); lines, inlines and CFI changes are sorted within their owner instead. */
const SORTED = ['files', 'origins', 'funcs', 'publics', 'cfiInit', 'winFrameData', 'winFpo'] as const
const fits = (...n: number[]) => n.every((x) => x <= U32_MAX)

/**
 * Collects a `.sym`'s records into the index sections as they stream past: numbers into word lists,
 * names once each into a string table. Line and INLINE records attach to the FUNC before them,
 * STACK CFI changes to the INIT before them.
 */
class IndexBuilder {
  private readonly strings = new Map<string, number>()
  private readonly lists = Object.fromEntries(Object.keys(SECTIONS).filter((k) => k !== 'strings').map((k) => [k, new U32List()])) as Record<WordSection, U32List>
  private readonly meta = new Array<number>(SECTIONS.meta).fill(NONE)
  /** Word offset of the open FUNC and CFI INIT records, -1 when none is open. */
  private func = -1
  private cfi = -1

  string(text: string): number {
    let id = this.strings.get(text)
    if (id === undefined) this.strings.set(text, (id = this.strings.size))
    return id
  }

  add = (r: SymRecord, hooks: SymReadHooks): void => {
    const { lists: l } = this
    const skip = (why: string) => hooks.skip(hooks.report.lines, why)
    if (r.kind !== 'line' && r.kind !== 'inline') this.closeFunc()
    if (r.kind !== 'cfi') this.cfi = -1
    switch (r.kind) {
      case 'module':
        if (this.meta[2] === NONE) [r.os, r.arch, r.debugId, r.name].forEach((t, i) => (this.meta[i] = this.string(t)))
        return
      case 'codeId':
        this.meta[4] = this.string(r.codeId)
        if (r.codeFile) this.meta[5] = this.string(r.codeFile)
        return
      case 'file':
        return fits(r.id) ? l.files.push(r.id, this.string(r.name)) : skip('FILE id past 2^32')
      case 'inlineOrigin':
        return fits(r.id) ? l.origins.push(r.id, this.string(r.name), r.fileId ?? NONE) : skip('INLINE_ORIGIN id past 2^32')
      case 'func':
        if (!fits(r.address, r.size, r.paramSize)) return skip('FUNC past 4 GB')
        this.func = l.funcs.length
        return l.funcs.push(r.address, r.size, this.string(r.name), r.paramSize, l.lines.length / SECTIONS.lines, 0, l.inlines.length / SECTIONS.inlines, 0)
      case 'line':
        if (this.func < 0) return skip('a line record outside a FUNC')
        if (!fits(r.address, r.size, r.line, r.fileId)) return skip('line record past 4 GB')
        l.lines.push(r.address, r.size, r.line, r.fileId)
        return this.bump(l.funcs, this.func + 5)
      case 'inline':
        if (this.func < 0) return skip('an INLINE outside a FUNC')
        if (!r.ranges.every(([a, s]) => fits(a, s))) return skip('INLINE range past 4 GB')
        l.inlines.push(r.depth, r.callLine, r.callFileId ?? NONE, r.originId, l.inlineRanges.length / 2, r.ranges.length)
        for (const [a, s] of r.ranges) l.inlineRanges.push(a, s)
        return this.bump(l.funcs, this.func + 7)
      case 'public':
        return fits(r.address, r.paramSize) ? l.publics.push(r.address, r.paramSize, this.string(r.name)) : skip('PUBLIC past 4 GB')
      case 'cfiInit':
        if (!fits(r.address, r.size)) return skip('STACK CFI INIT past 4 GB')
        this.cfi = l.cfiInit.length
        return l.cfiInit.push(r.address, r.size, this.string(r.rules), l.cfiChanges.length / 2, 0)
      case 'cfi':
        if (this.cfi < 0) return skip('a STACK CFI without its INIT')
        if (!fits(r.address)) return skip('STACK CFI past 4 GB')
        l.cfiChanges.push(r.address, this.string(r.rules))
        return this.bump(l.cfiInit, this.cfi + 4)
      case 'stackWin': {
        if (r.type !== 4 && r.type !== 0) return
        if (!fits(r.address, r.size)) return skip('STACK WIN past 4 GB')
        const flags = (r.program !== null ? 1 : 0) | (r.allocatesBasePointer ? 2 : 0)
        const list = r.type === 4 ? l.winFrameData : l.winFpo
        return list.push(r.address, r.size, r.prologSize, r.epilogSize, r.paramSize, r.savedRegisterSize, r.localSize, r.maxStackSize, flags, r.program === null ? NONE : this.string(r.program))
      }
    }
  }

  private bump(list: U32List, at: number): void {
    const words = list.view()
    words[at] = words[at]! + 1
  }

  /** Sorts the open FUNC's lines by address once they are all read. */
  private closeFunc(): void {
    if (this.func < 0) return
    const f = this.lists.funcs.view().subarray(this.func, this.func + SECTIONS.funcs)
    sortRecords(this.lists.lines.view(), SECTIONS.lines, f[4]!, f[4]! + f[5]!)
    this.func = -1
  }

  finish(): Sections {
    this.closeFunc()
    const words = Object.fromEntries(Object.entries(this.lists).map(([k, list]) => [k, list.view().slice()])) as Record<WordSection, Uint32Array>
    words.meta = Uint32Array.from(this.meta)
    for (const name of SORTED) sortRecords(words[name], SECTIONS[name])
    const init = words.cfiInit
    for (let i = 0; i < init.length; i += SECTIONS.cfiInit) sortRecords(words.cfiChanges, SECTIONS.cfiChanges, init[i + 3]!, init[i + 3]! + init[i + 4]!)
    const encoder = new TextEncoder()
    const encoded = [...this.strings.keys()].map((s) => encoder.encode(s))
    const offsets = new Uint32Array(encoded.length + 1)
    encoded.forEach((e, i) => (offsets[i + 1] = offsets[i]! + e.length))
    const strings = new Uint8Array(offsets[encoded.length]!)
    encoded.forEach((e, i) => strings.set(e, offsets[i]!))
    return { ...words, stringOffsets: offsets, strings }
  }
}

/**
 * Builds the lookup index of a Breakpad `.sym` (bytes, text or a stream of chunks), reading it one
 * line at a time: the file is never held whole. The bytes are meant to be stored beside the file
 * and read back with loadSymIndex. Throws SymError when the source is not a `.sym`.
 */
export async function buildSymIndex(source: SymSource): Promise<{ index: Uint8Array; report: SymReadReport }> {
  const builder = new IndexBuilder()
  const report = await readSym(source, builder.add)
  return { index: writeSections(builder.finish()), report }
}

/** The same for a `.sym` already in memory, synchronously. */
export function buildSymIndexSync(source: Uint8Array | string): { index: Uint8Array; report: SymReadReport } {
  const builder = new IndexBuilder()
  const report = readSymSync(source, builder.add)
  return { index: writeSections(builder.finish()), report }
}
