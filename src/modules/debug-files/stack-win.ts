import type { WinFrameInfo } from './debug-files.types'
import { runPostfix } from './postfix'
import { scanForReturnAddress } from './stack-scan'
import type { WalkContext, WalkFrame } from './walk.types'

/** Words searched above the computed return-address slot, in case the stack was realigned (Breakpad's 3). */
const REALIGN_WORDS = 3

/** The programs Breakpad uses for FPO data, which has none of its own. */
const FPO_WITH_BASE_POINTER = '$eip .raSearchStart ^ = $ebp $esp .cbCalleeParams + .cbSavedRegs + 8 - ^ = $esp .raSearchStart 4 + ='
const FPO = '$eip .raSearchStart ^ = $esp .raSearchStart 4 + ='

/**
 * The caller's registers of an x86 frame by its STACK WIN record (Windows frame data or FPO data),
 * as Breakpad's stackwalker_x86 does it: the return address is searched for just above the frame's
 * locals and saved registers (and the parameters of the function it called), then the frame's
 * program assigns `$eip`, `$esp` and the saved registers. Null when the program fails or leaves
 * `$eip` or `$esp` unassigned.
 */
export async function unwindByStackWin(win: WinFrameInfo, callee: WalkFrame, calleeOfCallee: WalkFrame | undefined, ctx: WalkContext): Promise<Map<string, bigint> | null> {
  const { cpu, memory } = ctx
  const [esp, ebp] = [callee.registers.get('esp'), callee.registers.get('ebp')]
  if (esp === undefined) return null
  const calleeParams = BigInt(calleeOfCallee?.win?.paramSize ?? 0)
  const program = win.program ?? (win.allocatesBasePointer ? FPO_WITH_BASE_POINTER : FPO)

  let raSearchStart = (esp + calleeParams + BigInt(win.localSize) + BigInt(win.savedRegisterSize)) & cpu.mask
  const found = await scanForReturnAddress(raSearchStart, REALIGN_WORDS, ctx)
  if (found) raSearchStart = found.location
  // A program that aligns (`@`) works from a realigned frame, which the frame pointer locates.
  if (ebp !== undefined && program.includes('@')) raSearchStart = (ebp + 4n) & cpu.mask

  const vars = new Map<string, bigint>([
    ['$esp', esp],
    ['.cbCalleeParams', calleeParams],
    ['.cbSavedRegs', BigInt(win.savedRegisterSize)],
    ['.cbLocals', BigInt(win.localSize)],
    ['.cbParams', BigInt(win.paramSize)],
    ['.raSearchStart', raSearchStart],
    ['.raSearch', raSearchStart],
  ])
  for (const name of ['ebp', 'ebx', 'esi', 'edi']) {
    const value = callee.registers.get(name)
    if (value !== undefined) vars.set(`$${name}`, value)
  }
  const assigned = new Set<string>()
  if (!runPostfix(program, { vars, read: (a) => memory.word(a), mask: cpu.mask, assigned })) return null
  if (!assigned.has('$eip') || !assigned.has('$esp')) return null

  const caller = new Map<string, bigint>()
  for (const name of ['eip', 'esp', 'ebp', 'ebx', 'esi', 'edi']) {
    const value = vars.get(`$${name}`)
    if (value !== undefined) caller.set(name, value)
  }
  return caller
}
