import type { SymbolAt, WinFrameInfo } from './debug-files.types'
import { NONE, readSections, SECTIONS, type Sections } from './sym-index.format'

const utf8 = new TextDecoder('utf-8')
/** INLINE records of one function read per lookup: heavily inlined C++ has thousands; a hostile file could list millions. */
const MAX_INLINES_READ = 65536

/** The index of the last record (of `stride` words, sorted by first word) whose first word is at most `key`, -1 when none. */
function lastAtOrBefore(words: Uint32Array, stride: number, key: number, from = 0, to = words.length / stride): number {
  let [lo, hi] = [from, to]
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (words[mid * stride]! <= key) lo = mid + 1
    else hi = mid
  }
  return lo - 1 >= from ? lo - 1 : -1
}

/** The record of `stride` words at index `i` whose range (start, size in its first two words) holds `key`. */
function rangeAt(words: Uint32Array, stride: number, key: number): number {
  const i = lastAtOrBefore(words, stride, key)
  return i >= 0 && key - words[i * stride]! < words[i * stride + 1]! ? i : -1
}

/** The module a symbol index describes, from its MODULE and INFO CODE_ID lines. */
export interface SymModuleInfo {
  os: string | null
  arch: string | null
  debugId: string | null
  name: string | null
  codeId: string | null
  codeFile: string | null
}

/**
 * Lookups over an index built by buildSymIndex, without parsing anything: binary searches over
 * views of the stored bytes. Every reference read from the bytes is checked, so a damaged index
 * gives fewer answers, never an exception.
 */
export class SymIndex {
  readonly module: SymModuleInfo
  private readonly s: Sections
  private readonly nameCache = new Map<number, string>()

  constructor(bytes: Uint8Array) {
    this.s = readSections(bytes)
    const m = (i: number) => this.string(this.s.meta[i] ?? NONE)
    this.module = { os: m(0), arch: m(1), debugId: m(2), name: m(3), codeId: m(4), codeFile: m(5) }
  }

  private string(id: number): string | null {
    const offsets = this.s.stringOffsets
    if (id === NONE || id + 1 >= offsets.length) return null
    let text = this.nameCache.get(id)
    if (text === undefined) {
      const [from, to] = [offsets[id]!, offsets[id + 1]!]
      text = to >= from && to <= this.s.strings.length ? utf8.decode(this.s.strings.subarray(from, to)) : ''
      this.nameCache.set(id, text)
    }
    return text
  }

  private fileName(fileId: number): string | null {
    const i = fileId === NONE ? -1 : lastAtOrBefore(this.s.files, SECTIONS.files, fileId)
    return i >= 0 && this.s.files[i * 2] === fileId ? this.string(this.s.files[i * 2 + 1]!) : null
  }

  private origin(originId: number): { name: string; fileId: number } {
    const o = this.s.origins
    const i = lastAtOrBefore(o, SECTIONS.origins, originId)
    if (i < 0 || o[i * 3] !== originId) return { name: '<unknown inline>', fileId: NONE }
    return { name: this.string(o[i * 3 + 1]!) ?? '<unknown inline>', fileId: o[i * 3 + 2]! }
  }

  /** The function, file, line and inlined calls at a module offset; the nearest PUBLIC symbol when no FUNC holds it; null when neither does. */
  lookup(offset: number): SymbolAt | null {
    const { funcs, publics } = this.s
    const nearest = lastAtOrBefore(funcs, SECTIONS.funcs, offset)
    if (nearest >= 0 && offset - funcs[nearest * 8]! < funcs[nearest * 8 + 1]!) return this.inFunction(nearest, offset)
    const p = lastAtOrBefore(publics, SECTIONS.publics, offset)
    // A PUBLIC before the last FUNC that starts before the offset belongs to that function's region, not to this address.
    if (p < 0 || (nearest >= 0 && publics[p * 3]! <= funcs[nearest * 8]!)) return null
    return { function: this.string(publics[p * 3 + 2]!) ?? '<name omitted>', functionAddress: publics[p * 3]!, file: null, line: null, inlined: [] }
  }

  private inFunction(f: number, offset: number): SymbolAt {
    const r = this.s.funcs.subarray(f * 8, f * 8 + 8)
    const lines = this.s.lines
    const [from, count] = [r[4]!, r[5]!]
    const to = Math.min(from + count, lines.length / 4)
    const l = lastAtOrBefore(lines, SECTIONS.lines, offset, from, to)
    const hit = l >= 0 && offset - lines[l * 4]! < lines[l * 4 + 1]!
    const leaf = { file: hit ? this.fileName(lines[l * 4 + 3]!) : null, line: hit ? lines[l * 4 + 2]! : null }
    const symbol: SymbolAt = { function: this.string(r[2]!) ?? '<name omitted>', functionAddress: r[0]!, ...leaf, inlined: [] }
    const chain = this.inlinesAt(r[6]!, r[7]!, offset)
    if (chain.length === 0) return symbol
    // Each inlined call's location is the call site recorded one level deeper; the innermost takes the line record.
    const callFile = (k: number) => {
      const c = chain[k]!
      if (c.callFileId !== NONE) return this.fileName(c.callFileId)
      // The older form has no call file: the call is in the file of the function it sits in.
      return k === 0 ? leaf.file : this.fileName(this.origin(chain[k - 1]!.originId).fileId)
    }
    symbol.file = callFile(0)
    symbol.line = chain[0]!.callLine
    for (let k = chain.length - 1; k >= 0; k--) {
      const inner = k === chain.length - 1
      symbol.inlined.push({ function: this.origin(chain[k]!.originId).name, file: inner ? leaf.file : callFile(k + 1), line: inner ? leaf.line : chain[k + 1]!.callLine })
    }
    return symbol
  }

  /** The INLINE records of a function whose ranges hold `offset`, outermost first. */
  private inlinesAt(from: number, count: number, offset: number): Array<{ callLine: number; callFileId: number; originId: number }> {
    const { inlines, inlineRanges } = this.s
    const found: Array<{ depth: number; callLine: number; callFileId: number; originId: number }> = []
    for (let i = from; i < Math.min(from + count, from + MAX_INLINES_READ, inlines.length / 6); i++) {
      const rec = inlines.subarray(i * 6, i * 6 + 6)
      for (let j = rec[4]!; j < Math.min(rec[4]! + rec[5]!, inlineRanges.length / 2); j++) {
        if (offset - inlineRanges[j * 2]! < inlineRanges[j * 2 + 1]! && offset >= inlineRanges[j * 2]!) {
          found.push({ depth: rec[0]!, callLine: rec[1]!, callFileId: rec[2]!, originId: rec[3]! })
          break
        }
      }
    }
    return found.sort((a, b) => a.depth - b.depth)
  }

  /** The STACK CFI rules in force at a module offset (`.cfa`, `.ra`, `$rbx`, … to postfix expressions), null without CFI there. */
  cfiAt(offset: number): Map<string, string> | null {
    const { cfiInit, cfiChanges } = this.s
    const i = rangeAt(cfiInit, SECTIONS.cfiInit, offset)
    if (i < 0) return null
    const rec = cfiInit.subarray(i * 5, i * 5 + 5)
    const rules = new Map<string, string>()
    addRules(rules, this.string(rec[2]!) ?? '')
    for (let c = rec[3]!; c < Math.min(rec[3]! + rec[4]!, cfiChanges.length / 2) && cfiChanges[c * 2]! <= offset; c++) addRules(rules, this.string(cfiChanges[c * 2 + 1]!) ?? '')
    return rules
  }

  /** The STACK WIN record at a module offset, frame data before FPO data, as Breakpad prefers. */
  winAt(offset: number): WinFrameInfo | null {
    for (const [type, words] of [[4, this.s.winFrameData], [0, this.s.winFpo]] as const) {
      const i = rangeAt(words, SECTIONS.winFrameData, offset)
      if (i < 0) continue
      const r = words.subarray(i * 10, i * 10 + 10)
      return { type, paramSize: r[4]!, savedRegisterSize: r[5]!, localSize: r[6]!, program: r[8]! & 1 ? this.string(r[9]!) : null, allocatesBasePointer: (r[8]! & 2) !== 0 }
    }
    return null
  }
}

/** Adds `.cfa: $rsp 16 + .ra: .cfa -8 + ^`-style rules to a map, later rules replacing earlier ones of the same register. */
function addRules(rules: Map<string, string>, text: string): void {
  let name: string | null = null
  let expr: string[] = []
  const flush = () => {
    if (name !== null && expr.length > 0) rules.set(name, expr.join(' '))
  }
  for (const token of text.split(' ')) {
    if (token.endsWith(':')) {
      flush()
      name = token.slice(0, -1)
      expr = []
    } else if (token) expr.push(token)
  }
  flush()
}

/** Opens an index built by buildSymIndex; SymError when the bytes are not one. */
export function loadSymIndex(bytes: Uint8Array): SymIndex {
  return new SymIndex(bytes)
}
