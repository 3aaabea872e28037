import type { WalkContext, WalkFrame } from './walk.types'

/** Words scanned for a caller: Breakpad's 40, four times that from the crashing frame, which may not have set up its frame yet. */
export const SCAN_WORDS = 40
export const SCAN_WORDS_CONTEXT = 160

/**
 * Whether a stack word looks like a return address: the call instruction before it (the word less
 * one) lies inside a module's range and, where the module has symbols, inside a function.
 */
export async function seemsReturnAddress(value: bigint, ctx: WalkContext): Promise<boolean> {
  if (value === 0n) return false
  const found = await ctx.moduleAt(value - 1n)
  if (!found) return false
  return !found.symbols || found.symbols.lookup(Number(value - 1n - found.entry.base)) !== null
}

/** The first word from `start` on (at most `words` of them, within the walk's budget) that seems a return address, with where it lies. */
export async function scanForReturnAddress(start: bigint, words: number, ctx: WalkContext): Promise<{ location: bigint; value: bigint } | null> {
  const word = BigInt(ctx.cpu.wordSize)
  for (let i = 0; i < words && ctx.scanBudget.words > 0; i++, ctx.scanBudget.words--) {
    const location = start + BigInt(i) * word
    const value = ctx.memory.word(location)
    if (value === undefined) return null
    if (await seemsReturnAddress(value, ctx)) return { location, value }
  }
  return null
}

/**
 * The caller's registers by scanning the stack from the callee's stack pointer for a return
 * address. The frame pointer is kept when it still points above the found slot (the caller's frame
 * holds it); other registers are unknown.
 */
export async function unwindByScan(callee: WalkFrame, ctx: WalkContext): Promise<Map<string, bigint> | null> {
  const { cpu } = ctx
  const sp = callee.registers.get(cpu.sp)
  if (sp === undefined) return null
  const found = await scanForReturnAddress(sp, callee.trust === 'context' ? SCAN_WORDS_CONTEXT : SCAN_WORDS, ctx)
  if (!found) return null
  const caller = new Map([[cpu.pc, found.value], [cpu.sp, found.location + BigInt(cpu.wordSize)]])
  const bp = callee.registers.get(cpu.bp)
  if (bp !== undefined && bp > found.location) caller.set(cpu.bp, bp)
  return caller
}
