import type { AppDeps } from '../../app-deps'
import type { StackFrame } from '../ingest/stack'

/** A module on the crashed thread's stack that the project has no symbols for. */
export interface MissingSymbols {
  /** Base name (`game.exe`). */
  module: string
  debugId: string
}

/** A thread other than the crashed one, walked the same way. */
export interface OtherThread {
  id: number
  frames: StackFrame[]
}

/**
 * The crashed thread of a dump walked and symbolicated: frames innermost first, with function, file
 * and line where symbols say; none when no frame got a name. The other threads and the modules without
 * symbols come with it when the symbolicator gives them (optional: older callers build this with
 * frames alone).
 */
export interface SymbolicatedStack {
  frames: StackFrame[]
  otherThreads?: OtherThread[]
  missingSymbols?: MissingSymbols[]
}

export type MinidumpSymbolicator = (deps: Pick<AppDeps, 'db' | 'files'>, projectId: string, dump: Uint8Array) => Promise<SymbolicatedStack | null>

let symbolicator: MinidumpSymbolicator | null = null

/**
 * Registers how dumps are symbolicated: debug-files does it from its module file, as it reads this
 * domain's minidump parser (a hook, so the two domains import each other in one direction only).
 */
export function registerMinidumpSymbolicator(fn: MinidumpSymbolicator): void {
  symbolicator = fn
}

/**
 * The crashed thread symbolicated with the project's own uploads (no frames when its symbols name
 * none), or null: nothing registered, nothing walked, or any failure. Symbolication never fails the
 * filing of a crash.
 */
export async function symbolicateMinidump(deps: Pick<AppDeps, 'db' | 'files' | 'logger'>, projectId: string, dump: Uint8Array): Promise<SymbolicatedStack | null> {
  if (!symbolicator) return null
  try {
    return await symbolicator(deps, projectId, dump)
  } catch (err) {
    deps.logger.warn('a minidump could not be symbolicated; filed as read', { project_id: projectId, error: err instanceof Error ? err.message : String(err) })
    return null
  }
}
