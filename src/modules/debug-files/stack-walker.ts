import { readStackInput, type StackThread } from '../sentry/minidump/minidump-stack'
import { unwindByCfi } from './cfi'
import type { FrameTrust, WalkedThread, WalkResult } from './debug-files.types'
import { unwindByFramePointer } from './frame-pointer'
import { ModuleMap, type SymbolsFor } from './module-map'
import { ProcessMemory } from './process-memory'
import { unwindByScan } from './stack-scan'
import { unwindByStackWin } from './stack-win'
import { symbolicate } from './symbolicate'
import { CPUS, lookupAddress, type WalkContext, type WalkFrame } from './walk.types'

/** How far a walk may go: frames per thread, threads, stack words scanned in all, and time in all. */
export interface WalkLimits {
  maxFrames: number
  maxThreads: number
  scanWords: number
  timeMs: number
}

export const WALK_LIMITS: WalkLimits = { maxFrames: 256, maxThreads: 256, scanWords: 128 * 1024, timeMs: 2000 }

type Method = { trust: FrameTrust; unwind: () => Map<string, bigint> | null | Promise<Map<string, bigint> | null> }

/**
 * The caller of the last frame, by the best method the module's symbols allow: STACK WIN (x86),
 * STACK CFI, the frame pointer, then a stack scan. A method's answer must move up the stack and,
 * but for a scan (which checks its own), land in a module; else the next method is tried. Null
 * at the end of the stack: no method found a caller, or CFI says the return address is 0.
 */
async function unwind(frames: WalkFrame[], ctx: WalkContext): Promise<WalkFrame | null> {
  const { cpu } = ctx
  const callee = frames.at(-1)!
  const at = lookupAddress(callee, cpu)
  const sp = callee.registers.get(cpu.sp)
  if (at === undefined || sp === undefined) return null
  const found = await ctx.moduleAt(at)
  const symbols = found?.symbols ?? null
  const offset = found ? Number(at - found.entry.base) : 0
  const win = symbols && cpu === CPUS.x86 ? symbols.winAt(offset) : null
  callee.win = win
  const rules = symbols?.cfiAt(offset) ?? null

  const methods: Method[] = []
  if (win) methods.push({ trust: 'cfi', unwind: () => unwindByStackWin(win, callee, frames.at(-2), ctx) })
  if (rules) methods.push({ trust: 'cfi', unwind: () => unwindByCfi(rules, callee, ctx) })
  methods.push({ trust: 'frame_pointer', unwind: () => unwindByFramePointer(callee, ctx) })
  methods.push({ trust: 'scan', unwind: () => unwindByScan(callee, ctx) })

  for (const method of methods) {
    const registers = await method.unwind()
    const [pc, callerSp] = [registers?.get(cpu.pc), registers?.get(cpu.sp)]
    if (!registers || pc === undefined || callerSp === undefined || callerSp <= sp) continue
    if (pc === 0n) {
      if (method.trust === 'cfi') return null
      continue
    }
    if (method.trust !== 'scan' && !(await ctx.moduleAt(pc))) continue
    return { registers, trust: method.trust, win: null }
  }
  return null
}

async function walkThread(thread: StackThread, ctx: WalkContext, limits: WalkLimits, deadline: number): Promise<WalkedThread> {
  const base = { id: thread.id, crashed: thread.crashed }
  if (!thread.registers) return { ...base, frames: [], stopped: 'no x86 or amd64 CPU context' }
  const frames: WalkFrame[] = [{ registers: thread.registers, trust: 'context', win: null }]
  let stopped: string | null = null
  for (;;) {
    if (frames.length >= limits.maxFrames) stopped = `frame limit (${limits.maxFrames})`
    else if (performance.now() > deadline) stopped = 'time limit'
    if (stopped) break
    const caller = await unwind(frames, ctx)
    if (!caller) break
    frames.push(caller)
  }
  return { ...base, frames: await Promise.all(frames.map((f) => symbolicate(f, ctx))), stopped }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err))

/**
 * Walks the stacks of a minidump's threads (the crashed one first) and symbolicates each frame with
 * the symbol index `symbolsFor` gives for a module's debug id. Bounded by `limits`; never throws:
 * a dump that cannot be read gives no threads and an `error`, a thread that cannot be walked
 * further keeps the frames found so far.
 */
export async function walkStack(minidump: Uint8Array, symbolsFor: SymbolsFor, limits: WalkLimits = WALK_LIMITS): Promise<WalkResult> {
  let input
  try {
    input = readStackInput(minidump)
  } catch (err) {
    return { threads: [], error: message(err) }
  }
  if (!input.cpu) return { threads: [], error: 'only x86 and amd64 stacks are walked' }
  const modules = new ModuleMap(input.modules, symbolsFor)
  const cpu = CPUS[input.cpu]
  const ctx: WalkContext = { cpu, memory: new ProcessMemory(input.memory, cpu.wordSize), moduleAt: modules.moduleAt, scanBudget: { words: limits.scanWords } }
  const deadline = performance.now() + limits.timeMs
  const ordered = [...input.threads.filter((t) => t.crashed), ...input.threads.filter((t) => !t.crashed)].slice(0, limits.maxThreads)
  const threads: WalkedThread[] = []
  for (const thread of ordered) {
    try {
      threads.push(await walkThread(thread, ctx, limits, deadline))
    } catch (err) {
      threads.push({ id: thread.id, crashed: thread.crashed, frames: [], stopped: `walker error: ${message(err)}` })
    }
  }
  return { threads, error: null }
}
