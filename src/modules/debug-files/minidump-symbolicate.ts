import type { AppDeps } from '../../app-deps'
import type { StackFrame as IngestFrame } from '../ingest/stack'
import type { MissingSymbols, SymbolicatedStack } from '../sentry/minidump-symbols'
import type { StackFrame, WalkedThread } from './debug-files.types'
import { createDebugFilesRepository } from './debug-files.repository'
import { walkStack } from './stack-walker'
import { loadSymIndex, type SymIndex } from './sym-index.reader'

/** A walked frame as ingest groups and shows it: the function where symbols name it, else the module and offset. */
function ingestFrame(f: StackFrame): IngestFrame {
  const frame: IngestFrame = { address: f.offset ?? f.address }
  if (f.module) frame.module = f.module
  if (f.function) frame.function = f.function
  if (f.file) frame.file = f.file
  if (f.line !== null) frame.line = f.line
  return frame
}

/** Other threads kept with a crash at most, and frames of each: what a reader scans, and what fits a description. */
const MAX_OTHER_THREADS = 32
const MAX_OTHER_THREAD_FRAMES = 64

/** The modules of the crashed thread's frames whose debug ids the project has no symbols for, each once, innermost first. */
function missingOn(thread: WalkedThread, without: Set<string>): MissingSymbols[] {
  const seen = new Map<string, MissingSymbols>()
  for (const f of thread.frames) {
    const id = f.debugId?.toUpperCase()
    if (id && f.module && without.has(id) && !seen.has(id)) seen.set(id, { module: f.module, debugId: id })
  }
  return [...seen.values()]
}

/**
 * Walks a dump's crashed thread with the `.sym` indexes the project uploaded (looked up by the
 * modules' debug ids, within this project only) and counts the uploads used. The other threads come
 * with it (at most MAX_OTHER_THREADS of MAX_OTHER_THREAD_FRAMES frames), and the crashed stack's
 * modules the project has no symbols for. No frames when none got a name (the crash is filed as read,
 * with module and offset, and every module of its walked stack is missing); null when nothing walked.
 */
export async function symbolicateDump(deps: Pick<AppDeps, 'db' | 'files'>, projectId: string, dump: Uint8Array): Promise<SymbolicatedStack | null> {
  const { db, files } = deps
  const repo = createDebugFilesRepository({ db })
  const used: string[] = []
  const without = new Set<string>()
  const symbolsFor = async (debugId: string): Promise<SymIndex | null> => {
    const row = await repo.symbolsOf(projectId, debugId.toUpperCase())
    const opened = row?.indexKey ? await files.open(db, row.indexKey) : null
    if (!row || !opened) {
      without.add(debugId.toUpperCase())
      return null
    }
    used.push(row.id)
    return loadSymIndex(new Uint8Array(await opened.body.arrayBuffer()))
  }
  const walked = await walkStack(dump, symbolsFor)
  const crashed = walked.threads.find((t) => t.crashed) ?? walked.threads[0]
  if (!crashed) return null
  const missingSymbols = missingOn(crashed, without)
  if (!crashed.frames.some((f) => f.function)) return { frames: [], missingSymbols }
  await repo.countSymbolicated(used)
  const otherThreads = walked.threads
    .filter((t) => t !== crashed)
    .slice(0, MAX_OTHER_THREADS)
    .map((t) => ({ id: t.id, frames: t.frames.slice(0, MAX_OTHER_THREAD_FRAMES).map(ingestFrame) }))
  return { frames: crashed.frames.map(ingestFrame), otherThreads, missingSymbols }
}
