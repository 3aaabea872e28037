import { UnrealCrashError } from './unreal-errors'

/** An element of the crash context: its name, its own text (entities decoded) and its child elements. */
export interface XmlElement {
  name: string
  text: string
  children: XmlElement[]
}

export interface XmlLimits {
  /** Deepest nesting accepted; Unreal's crash context nests four levels. */
  maxDepth: number
  /** Most elements accepted in the document. */
  maxElements: number
}

const DEFAULT_LIMITS: XmlLimits = { maxDepth: 16, maxElements: 20_000 }
const NAME = /^[A-Za-z_:][\w.:-]*/
const ENTITY = /&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

/**
 * Reads the XML that Unreal writes for its crash context into a tree. Deliberately small, for input
 * from anyone: no DTD (a `<!DOCTYPE` or `<!ENTITY` is refused, so no entity is ever defined or expanded,
 * only XML's five and character references are decoded), attributes skipped, nesting and element count
 * bounded, and every scan moves forward only (indexOf), so the cost is linear in the input. Anything
 * malformed (unclosed or mismatched tags, a second root, text outside the root) is an UnrealCrashError.
 */
export function parseXml(source: string, limits: XmlLimits = DEFAULT_LIMITS): XmlElement {
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  let elements = 0
  let i = 0
  while (i < source.length) {
    const lt = source.indexOf('<', i)
    const textEnd = lt === -1 ? source.length : lt
    if (textEnd > i) addText(stack, source.slice(i, textEnd), true)
    if (lt === -1) break
    if (source.startsWith('<?', lt)) {
      i = after(source, '?>', lt + 2, 'a processing instruction')
    } else if (source.startsWith('<!--', lt)) {
      i = after(source, '-->', lt + 4, 'a comment')
    } else if (source.startsWith('<![CDATA[', lt)) {
      i = after(source, ']]>', lt + 9, 'a CDATA section')
      addText(stack, source.slice(lt + 9, i - 3), false)
    } else if (source.startsWith('<!', lt)) {
      throw bad('the crash context has a DOCTYPE or ENTITY declaration, which is not accepted')
    } else if (source.startsWith('</', lt)) {
      i = after(source, '>', lt + 2, 'a closing tag')
      const name = source.slice(lt + 2, i - 1).trim()
      const open = stack.pop()
      if (open?.name !== name) throw bad(`the crash context closes </${clip(name)}> where ${open ? `<${clip(open.name)}>` : 'no element'} is open`)
    } else {
      const end = tagEnd(source, lt + 1)
      const inner = source.slice(lt + 1, end)
      const name = NAME.exec(inner)?.[0]
      if (!name || !/^(\s|\/?$)/.test(inner.slice(name.length))) throw bad(`the crash context has a malformed tag <${clip(inner)}>`)
      if (root && stack.length === 0) throw bad('the crash context has more than one root element')
      if (++elements > limits.maxElements) throw bad(`the crash context has more than ${limits.maxElements} elements`)
      if (stack.length >= limits.maxDepth) throw bad(`the crash context nests deeper than ${limits.maxDepth} levels`)
      const element: XmlElement = { name, text: '', children: [] }
      const parent = stack.at(-1)
      if (parent) parent.children.push(element)
      else root = element
      if (!inner.endsWith('/')) stack.push(element)
      i = end + 1
    }
  }
  if (stack.length > 0) throw bad(`the crash context ends inside <${clip(stack.at(-1)!.name)}>`)
  if (!root) throw bad('the crash context has no XML element')
  return root
}

/** First element named `name` in document order (the element itself included). */
export function findElement(element: XmlElement, name: string): XmlElement | undefined {
  if (element.name === name) return element
  for (const child of element.children) {
    const found = findElement(child, name)
    if (found) return found
  }
  return undefined
}

function addText(stack: XmlElement[], raw: string, decode: boolean) {
  const open = stack.at(-1)
  if (open) open.text += decode ? decodeEntities(raw) : raw
  else if (raw.trim() !== '') throw bad('the crash context has text outside its root element')
}

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(ENTITY, (whole, ref: string) => {
    if (ref[0] !== '#') return PREDEFINED[ref]!
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
    return valid ? String.fromCodePoint(code) : whole
  })
}

/** Index just past the next `marker` from `from`, else the document is cut short. */
function after(source: string, marker: string, from: number, what: string): number {
  const at = source.indexOf(marker, from)
  if (at === -1) throw bad(`the crash context ends inside ${what}`)
  return at + marker.length
}

/** Index of the `>` closing a start tag, skipping quoted attribute values. */
function tagEnd(source: string, from: number): number {
  let quote = ''
  for (let i = from; i < source.length; i++) {
    const c = source[i]
    if (quote) {
      if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === '>') return i
    else if (c === '<') break
  }
  throw bad('the crash context has a tag that is never closed with >')
}

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 39)}…` : text)
const bad = (message: string) => new UnrealCrashError('bad_context', message)
