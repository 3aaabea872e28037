/**
 * The records of a Breakpad `.sym` file (breakpad/docs/symbol_files.md). Addresses and sizes are
 * offsets from the module's load address, as numbers: a module is smaller than 4 GB.
 */

export interface SymModule {
  kind: 'module'
  os: string
  arch: string
  debugId: string
  name: string
}

/** `INFO CODE_ID <id> [<file>]`: the code id (PE timestamp and size, ELF build id). */
export interface SymCodeId {
  kind: 'codeId'
  codeId: string
  codeFile: string | null
}

export interface SymFileRecord {
  kind: 'file'
  id: number
  name: string
}

/** `INLINE_ORIGIN <id> [<file id>] <name>`: the file id appears in the older form only. */
export interface SymInlineOrigin {
  kind: 'inlineOrigin'
  id: number
  fileId: number | null
  name: string
}

export interface SymFunc {
  kind: 'func'
  address: number
  size: number
  paramSize: number
  name: string
}

/** A line record: the FUNC before it owns it. */
export interface SymLine {
  kind: 'line'
  address: number
  size: number
  line: number
  fileId: number
}

/** `INLINE <depth> <call line> [<call file id>] <origin id> (<address> <size>)+`: the call file id is in the newer form only. */
export interface SymInline {
  kind: 'inline'
  depth: number
  callLine: number
  callFileId: number | null
  originId: number
  ranges: Array<[address: number, size: number]>
}

export interface SymPublic {
  kind: 'public'
  address: number
  paramSize: number
  name: string
}

/** `STACK CFI INIT <address> <size> <rules>` (init) or `STACK CFI <address> <rules>` (a change from that address on). */
export interface SymCfi {
  kind: 'cfiInit' | 'cfi'
  address: number
  size: number
  rules: string
}

/** `STACK WIN`: Windows frame data (type 4, with a program) or FPO data (type 0). */
export interface SymStackWin {
  kind: 'stackWin'
  type: number
  address: number
  size: number
  prologSize: number
  epilogSize: number
  paramSize: number
  savedRegisterSize: number
  localSize: number
  maxStackSize: number
  /** The postfix program of frame data, null for FPO data. */
  program: string | null
  allocatesBasePointer: boolean
}

export type SymRecord = SymModule | SymCodeId | SymFileRecord | SymInlineOrigin | SymFunc | SymLine | SymInline | SymPublic | SymCfi | SymStackWin
