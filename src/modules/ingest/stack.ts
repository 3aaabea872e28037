/**
 * A stack trace as clients send it, before any normalising: the common shape that every adapter
 * (the Bugnet-style `--- Stack Trace ---` text, Sentry events, minidumps, Unreal crash contexts)
 * produces, and that grouping (fingerprint.ts) reads.
 */

/** One frame, as the client gave it; every field optional because every client omits some. */
export interface StackFrame {
  /** Function or method name, e.g. `InventoryPanel.Refresh` or `UEngine::Exec`. */
  function?: string
  /** Module, package, namespace or binary (`Assembly-CSharp`, `game.exe`). */
  module?: string
  /** Source file path as sent. */
  file?: string
  line?: number
  column?: number
  /**
   * Instruction address as hex text (`0x7ff6a1b2c3d4`); for a native frame without symbols whose
   * `module` is known, the offset in that module (`0x1a2b3c`), which stays the same between runs.
   */
  address?: string
  /** True for the game's own code, false for engine and system code, undefined when unknown. */
  inApp?: boolean
  /** Local variables as the client printed them (Sentry's `vars`): shown with the frame, never grouped on. */
  vars?: Record<string, string>
  /** The original source around `line` (from a source map): shown with the frame, never grouped on. */
  context?: { pre: string[]; line: string; post: string[] }
}

/** One exception of a chain: `type` (`NullReferenceException`), `value` (its message) and its frames, innermost first. */
export interface ExceptionInfo {
  type: string
  value: string
  frames: StackFrame[]
  /** Whether a handler caught it (Sentry's `mechanism.handled`); absent when the client did not say. */
  handled?: boolean
}
