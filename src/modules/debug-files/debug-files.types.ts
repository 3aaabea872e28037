/** One inlined call in a frame, as the frame's symbol says. */
export interface InlinedFrame {
  function: string
  file: string | null
  line: number | null
}

/** What a symbol index says about one address of its module. */
export interface SymbolAt {
  function: string
  /** Where the function starts (module offset). */
  functionAddress: number
  file: string | null
  line: number | null
  /** The calls inlined at this address, innermost first; `function`, `file` and `line` are then the outer function at the first call. */
  inlined: InlinedFrame[]
}

/** A STACK WIN record as the x86 walker uses it. */
export interface WinFrameInfo {
  type: 0 | 4
  paramSize: number
  savedRegisterSize: number
  localSize: number
  program: string | null
  allocatesBasePointer: boolean
}

/** How a frame was found, from most to least trusted. */
export type FrameTrust = 'context' | 'cfi' | 'frame_pointer' | 'scan'

/** A frame of a walked stack. */
export interface StackFrame {
  /** The instruction pointer (frame 0) or return address, hex. */
  address: string
  module: string | null
  debugId: string | null
  /** The address less the module's base, hex; null outside every module. */
  offset: string | null
  function: string | null
  file: string | null
  line: number | null
  inlined: InlinedFrame[]
  trust: FrameTrust
}

/** A walked thread: frames innermost first. */
export interface WalkedThread {
  id: number
  crashed: boolean
  frames: StackFrame[]
  /** Why the walk of this thread stopped early (a limit, a missing context), null when it reached the end. */
  stopped: string | null
}

/** The result of walking a minidump: threads with the crashed one first. `error` says why nothing could be walked. */
export interface WalkResult {
  threads: WalkedThread[]
  error: string | null
}
