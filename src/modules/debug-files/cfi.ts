import { evaluateExpression } from './postfix'
import type { WalkContext, WalkFrame } from './walk.types'

/**
 * The caller's registers by a function's STACK CFI rules: `.cfa` from the callee's registers, then
 * `.ra` (the return address, the caller's pc) and each saved register from those and `.cfa`. The
 * caller's stack pointer is the CFA; callee-saved registers no rule mentions are unchanged. Null
 * when `.cfa` or `.ra` cannot be computed.
 */
export function unwindByCfi(rules: ReadonlyMap<string, string>, callee: WalkFrame, ctx: WalkContext): Map<string, bigint> | null {
  const { cpu, memory } = ctx
  const vars = new Map<string, bigint>()
  for (const [name, value] of callee.registers) vars.set(`$${name}`, value)
  const machine = { vars, read: (a: bigint) => memory.word(a), mask: cpu.mask }
  const cfaRule = rules.get('.cfa')
  const cfa = cfaRule === undefined ? undefined : evaluateExpression(cfaRule, machine)
  if (cfa === undefined) return null
  vars.set('.cfa', cfa)
  const raRule = rules.get('.ra')
  const ra = raRule === undefined ? undefined : evaluateExpression(raRule, machine)
  if (ra === undefined) return null

  const caller = new Map<string, bigint>()
  for (const name of cpu.calleeSaved) {
    const value = callee.registers.get(name)
    if (value !== undefined) caller.set(name, value)
  }
  for (const [name, rule] of rules) {
    if (name === '.cfa' || name === '.ra') continue
    const register = name.startsWith('$') ? name.slice(1) : name
    const value = evaluateExpression(rule, machine)
    if (value === undefined) caller.delete(register)
    else caller.set(register, value)
  }
  caller.set(cpu.sp, cfa)
  caller.set(cpu.pc, ra)
  return caller
}
