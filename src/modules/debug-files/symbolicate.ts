import { hex } from '../sentry/minidump/hex'
import type { StackFrame } from './debug-files.types'
import { lookupAddress, type WalkContext, type WalkFrame } from './walk.types'

/** A walked frame as reported: its module and offset, and function, file, line and inlined calls where symbols say. */
export async function symbolicate(frame: WalkFrame, ctx: WalkContext): Promise<StackFrame> {
  const pc = frame.registers.get(ctx.cpu.pc) ?? 0n
  const at = lookupAddress(frame, ctx.cpu) ?? pc
  const found = await ctx.moduleAt(at)
  const symbol = found?.symbols?.lookup(Number(at - found.entry.base)) ?? null
  return {
    address: hex(pc),
    module: found?.entry.module.name ?? null,
    debugId: found?.entry.module.debugId ?? null,
    offset: found ? hex(pc - found.entry.base) : null,
    function: symbol?.function ?? null,
    file: symbol?.file ?? null,
    line: symbol?.line ?? null,
    inlined: symbol?.inlined ?? [],
    trust: frame.trust,
  }
}
