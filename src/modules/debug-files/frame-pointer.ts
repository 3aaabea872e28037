import type { WalkContext, WalkFrame } from './walk.types'

/**
 * The caller's registers by the frame pointer chain: a function that keeps one pushed its caller's
 * frame pointer just below the return address, so `[bp]` is the caller's bp, `[bp + word]` its pc
 * and `bp + 2 words` its sp. Null when bp is missing, misaligned, below the stack pointer or points
 * at memory the dump does not have, and (as Breakpad checks) when the caller's bp would lie below
 * this one or outside the dump's memory: then bp was not a frame pointer.
 */
export function unwindByFramePointer(callee: WalkFrame, ctx: WalkContext): Map<string, bigint> | null {
  const { cpu, memory } = ctx
  const [bp, sp] = [callee.registers.get(cpu.bp), callee.registers.get(cpu.sp)]
  const word = BigInt(cpu.wordSize)
  if (bp === undefined || sp === undefined || bp < sp || bp % word !== 0n) return null
  const [callerBp, callerPc] = [memory.word(bp), memory.word(bp + word)]
  if (callerBp === undefined || callerPc === undefined || callerBp < bp || memory.word(callerBp) === undefined) return null
  return new Map([[cpu.pc, callerPc], [cpu.sp, (bp + 2n * word) & cpu.mask], [cpu.bp, callerBp]])
}
