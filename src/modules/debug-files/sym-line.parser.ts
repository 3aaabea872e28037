import type { SymRecord } from './sym.types'

/** One line's reading: a record, null for a line that carries nothing used (blank, INFO other than CODE_ID), or why it was skipped. */
export type LineReading = SymRecord | null | { malformed: string }

const HEX = /^[0-9a-fA-F]{1,16}$/
const DEC = /^[0-9]{1,10}$/

/** A hex field as a number, or NaN when it is not one or past 2^53. */
function hex(field: string | undefined): number {
  if (field === undefined || !HEX.test(field)) return NaN
  const n = Number.parseInt(field, 16)
  return Number.isSafeInteger(n) ? n : NaN
}

const dec = (field: string | undefined): number => (field !== undefined && DEC.test(field) ? Number(field) : NaN)

/**
 * The first `count` space-separated fields of `text` and the rest of it (names hold spaces). The
 * optional `m` (function has several names) marker of FUNC and PUBLIC is dropped first.
 */
function fields(text: string, count: number, dropMultiple = false): { head: string[]; rest: string } {
  let at = 0
  if (dropMultiple && text.startsWith('m ')) at = 2
  const head: string[] = []
  while (head.length < count) {
    const space = text.indexOf(' ', at)
    head.push(space === -1 ? text.slice(at) : text.slice(at, space))
    at = space === -1 ? text.length : space + 1
  }
  return { head, rest: text.slice(at) }
}

const bad = (why: string) => ({ malformed: why })

function funcLike(kind: 'func' | 'public', text: string): LineReading {
  const n = kind === 'func' ? 3 : 2
  const { head, rest } = fields(text, n, true)
  const nums = head.map(hex)
  if (nums.some(Number.isNaN)) return bad(`${kind.toUpperCase()} needs ${n} hex numbers`)
  const name = rest || '<name omitted>'
  return kind === 'func'
    ? { kind, address: nums[0]!, size: nums[1]!, paramSize: nums[2]!, name }
    : { kind, address: nums[0]!, paramSize: nums[1]!, name }
}

function inline(text: string): LineReading {
  const parts = text.split(' ')
  // The newer form adds a call file id; the address ranges come in pairs, so the count's parity tells the forms apart.
  const withFile = parts.length % 2 === 0
  const head = withFile ? 4 : 3
  if (parts.length < head + 2) return bad('INLINE needs a depth, a call line, an origin and an address range')
  const nums = parts.slice(0, head).map(dec)
  const ranges: Array<[number, number]> = []
  for (let i = head; i + 1 < parts.length; i += 2) ranges.push([hex(parts[i]), hex(parts[i + 1])])
  if (nums.some(Number.isNaN) || ranges.some(([a, s]) => Number.isNaN(a) || Number.isNaN(s))) return bad('INLINE has a field that is not a number')
  return { kind: 'inline', depth: nums[0]!, callLine: nums[1]!, callFileId: withFile ? nums[2]! : null, originId: nums[head - 1]!, ranges }
}

function inlineOrigin(text: string): LineReading {
  const { head, rest } = fields(text, 2)
  const id = dec(head[0])
  if (Number.isNaN(id)) return bad('INLINE_ORIGIN needs an id')
  // The older form puts a file id before the name; a name is never a bare number followed by a space.
  const fileId = dec(head[1])
  if (!Number.isNaN(fileId) && rest) return { kind: 'inlineOrigin', id, fileId, name: rest }
  return { kind: 'inlineOrigin', id, fileId: null, name: rest ? `${head[1]} ${rest}` : head[1] || '<name omitted>' }
}

function stack(text: string): LineReading {
  if (text.startsWith('CFI INIT ')) {
    const { head, rest } = fields(text.slice(9), 2)
    const [address, size] = head.map(hex)
    if (Number.isNaN(address) || Number.isNaN(size) || !rest) return bad('STACK CFI INIT needs an address, a size and rules')
    return { kind: 'cfiInit', address: address!, size: size!, rules: rest }
  }
  if (text.startsWith('CFI ')) {
    const { head, rest } = fields(text.slice(4), 1)
    const address = hex(head[0])
    if (Number.isNaN(address) || !rest) return bad('STACK CFI needs an address and rules')
    return { kind: 'cfi', address, size: 0, rules: rest }
  }
  if (text.startsWith('WIN ')) {
    const { head, rest } = fields(text.slice(4), 10)
    const n = head.map(hex)
    if (n.some(Number.isNaN)) return bad('STACK WIN needs ten hex numbers')
    const hasProgram = n[9] !== 0
    if (hasProgram && !rest) return bad('STACK WIN announces a program and has none')
    return {
      kind: 'stackWin', type: n[0]!, address: n[1]!, size: n[2]!, prologSize: n[3]!, epilogSize: n[4]!, paramSize: n[5]!,
      savedRegisterSize: n[6]!, localSize: n[7]!, maxStackSize: n[8]!,
      program: hasProgram ? rest : null,
      allocatesBasePointer: !hasProgram && rest.trim() === '1',
    }
  }
  return bad('unknown STACK record')
}

/** Reads one line of a `.sym` file. */
export function parseSymLine(line: string): LineReading {
  if (line.length === 0) return null
  const space = line.indexOf(' ')
  const keyword = space === -1 ? line : line.slice(0, space)
  const text = space === -1 ? '' : line.slice(space + 1)
  switch (keyword) {
    case 'MODULE': {
      const { head, rest } = fields(text, 3)
      if (!head[2] || !rest) return bad('MODULE needs an OS, an architecture, a debug id and a name')
      return { kind: 'module', os: head[0]!, arch: head[1]!, debugId: head[2].toUpperCase(), name: rest }
    }
    case 'INFO': {
      if (!text.startsWith('CODE_ID ')) return null
      const { head, rest } = fields(text.slice(8), 1)
      return head[0] ? { kind: 'codeId', codeId: head[0], codeFile: rest || null } : bad('INFO CODE_ID needs an id')
    }
    case 'FILE': {
      const { head, rest } = fields(text, 1)
      const id = dec(head[0])
      return Number.isNaN(id) || !rest ? bad('FILE needs an id and a name') : { kind: 'file', id, name: rest }
    }
    case 'INLINE_ORIGIN':
      return inlineOrigin(text)
    case 'INLINE':
      return inline(text)
    case 'FUNC':
      return funcLike('func', text)
    case 'PUBLIC':
      return funcLike('public', text)
    case 'STACK':
      return stack(text)
    default: {
      const parts = line.split(' ')
      const [address, size, lineNo, fileId] = [hex(parts[0]), hex(parts[1]), dec(parts[2]), dec(parts[3])]
      if (Number.isNaN(address)) return bad(`unknown record ${JSON.stringify(keyword.slice(0, 40))}`)
      if (parts.length !== 4 || [size, lineNo, fileId].some(Number.isNaN)) return bad('a line record needs an address, a size, a line and a file id')
      return { kind: 'line', address, size, line: lineNo, fileId }
    }
  }
}
