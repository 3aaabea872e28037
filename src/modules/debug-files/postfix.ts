/** Tokens evaluated at most in one program: real CFI rules and STACK WIN programs have a few dozen. */
export const MAX_POSTFIX_TOKENS = 256
/** Values on the stack at most. */
const MAX_DEPTH = 64

/** What a program runs against: named values (`$rsp`, `.cfa`, `$T0`), memory, and the width of a machine word. */
export interface PostfixMachine {
  /** Named values; assignments (`$T0 $ebp =`) write here. */
  vars: Map<string, bigint>
  /** The word at an address, undefined when the dump did not keep it. */
  read(address: bigint): bigint | undefined
  /** 2^32 - 1 or 2^64 - 1: arithmetic wraps at the word size, as the CPU's does. */
  mask: bigint
  /** Names the program assigned, when the caller needs to tell them from the values it started with. */
  assigned?: Set<string>
}

const NUMBER = /^-?(0x[0-9a-fA-F]+|[0-9]+)$/

/**
 * Runs a Breakpad postfix program (CFI rules and STACK WIN programs): numbers, names, the binary
 * operators `+ - * / % @` (`@` aligns down), `^` (read a word of memory) and `=` (assign to a name).
 * Returns what is left on the stack, or undefined when the program is malformed, too long, reads
 * memory the dump does not have, uses an unknown name or divides by zero. A program is one pass
 * over its tokens, so it cannot loop.
 */
export function runPostfix(program: string, m: PostfixMachine): Array<bigint | string> | undefined {
  const tokens = program.split(/\s+/).filter(Boolean)
  if (tokens.length > MAX_POSTFIX_TOKENS) return undefined
  const stack: Array<bigint | string> = []
  const value = (item: bigint | string | undefined): bigint | undefined => (typeof item === 'string' ? m.vars.get(item) : item)
  for (const token of tokens) {
    if (token === '^') {
      const address = value(stack.pop())
      const word = address === undefined ? undefined : m.read(address)
      if (word === undefined) return undefined
      stack.push(word)
    } else if (token === '=') {
      const [v, name] = [value(stack.pop()), stack.pop()]
      if (v === undefined || typeof name !== 'string') return undefined
      m.vars.set(name, v)
      m.assigned?.add(name)
    } else if (token.length === 1 && '+-*/%@'.includes(token)) {
      const [b, a] = [value(stack.pop()), value(stack.pop())]
      if (a === undefined || b === undefined) return undefined
      const result = binary(token, a, b, m.mask)
      if (result === undefined) return undefined
      stack.push(result)
    } else if (NUMBER.test(token)) {
      stack.push(BigInt.asUintN(64, token.startsWith('-') ? -BigInt(token.slice(1)) : BigInt(token)) & m.mask)
    } else {
      stack.push(token)
    }
    if (stack.length > MAX_DEPTH) return undefined
  }
  return stack
}

function binary(op: string, a: bigint, b: bigint, mask: bigint): bigint | undefined {
  switch (op) {
    case '+': return (a + b) & mask
    case '-': return (a - b) & mask
    case '*': return (a * b) & mask
    case '/': return b === 0n ? undefined : a / b
    case '%': return b === 0n ? undefined : a % b
    // Align down to a power of two, as MSVC's frame data uses it to find a realigned frame.
    default: return b === 0n ? undefined : a & ~(b - 1n) & mask
  }
}

/** Evaluates one CFI expression to a value (exactly one left on the stack), undefined when it cannot be. */
export function evaluateExpression(expression: string, m: PostfixMachine): bigint | undefined {
  const stack = runPostfix(expression, m)
  if (stack?.length !== 1) return undefined
  const top = stack[0]!
  return typeof top === 'string' ? m.vars.get(top) : top
}
