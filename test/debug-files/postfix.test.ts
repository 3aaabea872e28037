import { describe, expect, it } from 'vitest'
import { evaluateExpression, MAX_POSTFIX_TOKENS, runPostfix } from '../../src/modules/debug-files/postfix'

const memory = new Map<bigint, bigint>([[0x1000n, 0x2000n], [0x1008n, 0x401234n]])
const machine = (vars: Record<string, bigint> = {}, mask = 0xffffffffffffffffn) => ({
  vars: new Map(Object.entries(vars)),
  read: (a: bigint) => memory.get(a),
  mask,
})

describe('postfix expressions (CFI rules)', () => {
  it('computes the CFA and reads the return address through it', () => {
    const m = machine({ $rsp: 0x1000n })
    const cfa = evaluateExpression('$rsp 16 +', m)
    expect(cfa).toBe(0x1010n)
    m.vars.set('.cfa', cfa!)
    expect(evaluateExpression('.cfa -8 + ^', m)).toBe(0x401234n)
  })

  it('does unsigned arithmetic that wraps at the word size', () => {
    expect(evaluateExpression('5 7 -', machine({}, 0xffffffffn))).toBe(0xfffffffen)
    expect(evaluateExpression('5 7 -', machine())).toBe(0xfffffffffffffffen)
    expect(evaluateExpression('7 3 * 4 /', machine())).toBe(5n)
    expect(evaluateExpression('23 5 %', machine())).toBe(3n)
    // `@` aligns down: MSVC's frame data uses it for realigned frames.
    expect(evaluateExpression('0x1237 16 @', machine())).toBe(0x1230n)
  })

  it('assigns names in STACK WIN programs and records which', () => {
    const m = { ...machine({ $ebp: 0x1000n }, 0xffffffffn), assigned: new Set<string>() }
    expect(runPostfix('$T0 $ebp = $eip $T0 8 + ^ = $ebp $T0 ^ = $esp $T0 16 + =', m)).toEqual([])
    expect(m.vars.get('$eip')).toBe(0x401234n)
    expect(m.vars.get('$ebp')).toBe(0x2000n)
    expect(m.vars.get('$esp')).toBe(0x1010n)
    expect([...m.assigned]).toEqual(['$T0', '$eip', '$ebp', '$esp'])
  })

  it('gives up, without throwing, on division by zero, unknown names, unread memory and malformed programs', () => {
    for (const bad of ['1 0 /', '1 0 %', '1 0 @', '$nope 8 +', '0x9999 ^', '+', '1 2', '$rsp =', '1 $x =', '']) {
      expect(evaluateExpression(bad, machine({ $rsp: 0x1000n })), bad).toBeUndefined()
    }
  })

  it('refuses programs past the token limit and stacks past the depth limit', () => {
    const long = Array.from({ length: MAX_POSTFIX_TOKENS + 1 }, () => '1').join(' ')
    expect(runPostfix(long, machine())).toBeUndefined()
    expect(runPostfix(Array.from({ length: 100 }, () => '1').join(' '), machine())).toBeUndefined()
  })
})
