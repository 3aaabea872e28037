import { readSymSync, type SymReadReport } from './sym.reader'
import type { SymCfi, SymCodeId, SymFunc, SymInline, SymInlineOrigin, SymLine, SymModule, SymPublic, SymStackWin } from './sym.types'

/** A FUNC with the line and INLINE records that follow it. */
export interface SymFunction extends SymFunc {
  lines: SymLine[]
  inlines: SymInline[]
}

/** A STACK CFI INIT with the STACK CFI changes that follow it. */
export interface SymCfiEntry {
  init: SymCfi
  changes: SymCfi[]
}

/** A whole `.sym` file, grouped. */
export interface SymFile {
  module: SymModule
  codeId: SymCodeId | null
  files: Map<number, string>
  inlineOrigins: Map<number, SymInlineOrigin>
  functions: SymFunction[]
  publics: SymPublic[]
  cfi: SymCfiEntry[]
  stackWin: SymStackWin[]
  report: SymReadReport
}

/**
 * Parses a whole `.sym` held in memory into its records, in file order (for inspection and tests;
 * symbolication goes through buildSymIndex, which never keeps the records). Throws SymError when
 * the text is not a `.sym`; malformed records are skipped and listed in `report`.
 */
export function parseSym(source: Uint8Array | string): SymFile {
  const out: Omit<SymFile, 'module' | 'report'> & { module?: SymModule } = {
    codeId: null, files: new Map(), inlineOrigins: new Map(), functions: [], publics: [], cfi: [], stackWin: [],
  }
  let func: SymFunction | null = null
  let cfi: SymCfiEntry | null = null
  const report = readSymSync(source, (r, reader) => {
    if (r.kind !== 'line' && r.kind !== 'inline') func = null
    if (r.kind !== 'cfi') cfi = null
    switch (r.kind) {
      case 'module': out.module ??= r; break
      case 'codeId': out.codeId ??= r; break
      case 'file': out.files.set(r.id, r.name); break
      case 'inlineOrigin': out.inlineOrigins.set(r.id, r); break
      case 'func': func = { ...r, lines: [], inlines: [] }; out.functions.push(func); break
      case 'line': if (func) func.lines.push(r); else reader.skip(reader.report.lines, 'a line record outside a FUNC'); break
      case 'inline': if (func) func.inlines.push(r); else reader.skip(reader.report.lines, 'an INLINE outside a FUNC'); break
      case 'public': out.publics.push(r); break
      case 'cfiInit': cfi = { init: r, changes: [] }; out.cfi.push(cfi); break
      case 'cfi': if (cfi) cfi.changes.push(r); else reader.skip(reader.report.lines, 'a STACK CFI without its INIT'); break
      case 'stackWin': out.stackWin.push(r); break
    }
  })
  return { ...out, module: out.module!, report }
}
