import { titleKeyOf } from '../reports/title-terms'
import { isInApp } from './in-app'
import { framesOfText, stackTraceSection } from './stack-text'
import type { StackFrame } from './stack'

/**
 * The grouping key of a submission: submissions with equal fingerprints are one report (README
 * "Grouping"). In order:
 * 1. the client's own fingerprint, when it sends one (`{{ default }}` stands for rule 2, 3 or 4);
 * 2. with a stack trace: the error type plus the top in-app frame (function and file name), with
 *    line and column numbers, addresses, hex ids, generic arity and lambda ordinals stripped; when
 *    that frame names no code (an anonymous function known only by its file), an automatic capture
 *    is keyed on the error type plus its normalized message instead (CONTRACT § "Sentry SDKs");
 * 3. an automatic capture without one: its title with numbers, hex addresses, ids and quoted values
 *    as placeholders (`reading address 0x40` and `0xDEADBEEF` match);
 * 4. a player's report: its title as written (case and spacing aside): same title, same report.
 */
export interface GroupingInput {
  /** `auto`: an automatic capture (an SDK's error or crash); `player`: written by a person. */
  kind: 'auto' | 'player'
  title: string
  /** The exception class (`NullReferenceException`), '' when none is known. */
  errorType: string
  /** Innermost first; empty when the submission has no stack trace. */
  frames: StackFrame[]
  clientFingerprint?: string[] | null
}

export interface Grouping {
  /** 32 hex characters, stored on the report and compared. */
  fingerprint: string
  /** What a person reads: `NullReferenceException at InventoryPanel.Refresh (InventoryPanel.cs)`. */
  label: string
}

const LABEL_MAX = 300
const PART_MAX = 200

/** Names runtimes give code that has none: the frame is then known by its file (or module) alone. */
const NO_NAME = new Set(['?', '??', '???', '<anonymous>', 'anonymous', '<unknown>', 'unknown', 'UnknownFunction', '<module>'])

/** A function name with what varies between builds of the same code removed; '' for a name that names nothing. */
export function normalizeFunction(name: string): string {
  if (NO_NAME.has(name.trim())) return ''
  return name
    .replace(/\s*\[0x[0-9a-f]+\]/gi, '')
    .replace(/\s*\+\s*(?:0x[0-9a-f]+|\d+)\s*$/i, '')
    .replace(/0x[0-9a-f]+/gi, '')
    .replace(/`\d+(?:\[[^\]]*\])?/g, '') // .NET generic arity: List`1[T]
    .replace(/(<[\w.$]*>[a-z]__[A-Za-z]*)\d\w*/g, '$1') // C# lambdas and iterators: <Refresh>b__12_0, <>c__DisplayClass5_0, <Start>d__3
    .replace(/(lambda\$[\w]+\$)\d+/g, '$1') // Java lambdas: lambda$onClick$0
    .replace(/\$\$Lambda\$[\w/]+/g, '$$$$Lambda$$') // JVM lambda classes: $$Lambda$12/0x00000008
    .replace(/\$\d+\b/g, '$') // anonymous classes and Kotlin lambdas: Foo$1, $lambda$3
    .replace(/\s*\((?:[^()]|\([^()]*\))*\)\s*(?:const)?\s*$/, '') // C++/C# parameter lists
    .replace(/\b[0-9a-f]{12,}\b/gi, '') // hex ids (hashes in generated names)
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, PART_MAX)
}

/** The base name of a source file, without folders, query, line numbers or bundle hashes. */
export function normalizeFile(file: string): string {
  const base = file.replace(/[?#].*$/, '').replace(/:\d+(?::\d+)?$/, '').split(/[\\/]/).pop() ?? ''
  return base.replace(/[.-][0-9a-f]{6,}(?=\.)/gi, '').slice(0, PART_MAX)
}

/** A title with the values that differ between occurrences of one error as placeholders. */
export function normalizeTitle(title: string): string {
  return title
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/0x[0-9a-f]+/gi, '0x?')
    .replace(/(["'`])[^"'`\n]{0,300}?\1|“[^”\n]{0,300}?”|‘[^’\n]{0,300}?’/g, "'?'")
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<id>')
    .replace(/\d+(?:[.,]\d+)*/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The frame grouping keys on: the innermost in-app frame with something to name it by, else the innermost such frame. */
export function topFrame(frames: StackFrame[]): StackFrame | undefined {
  const named = (f: StackFrame) => Boolean((f.function && normalizeFunction(f.function)) || f.module || f.file)
  return frames.find((f) => named(f) && isInApp(f)) ?? frames.find(named)
}

/** Whether a frame names code: a function name, or for native code without symbols its module plus offset. */
export function namesCode(f: StackFrame): boolean {
  return Boolean((f.function && normalizeFunction(f.function)) || (f.module && f.address))
}

/** A frame that names code as [key part, label]: function and file name; a native frame without symbols by module and offset. */
function frameKey(f: StackFrame): [string, string] {
  const fn = f.function ? normalizeFunction(f.function) : ''
  const file = f.file ? normalizeFile(f.file) : ''
  if (fn) return [`${fn}|${file}`, file ? `${fn} (${file})` : fn]
  // Without a function name the offset in its module is what identifies the code (stable across ASLR).
  const where = `${normalizeFile(f.module ?? '')}+${(f.address ?? '').toLowerCase()}`
  return [`|${where}`, where]
}

// Bun's one-shot hasher: the same SHA-256 as node:crypto's createHash, in a third of the time.
const hash = (parts: string[]) => (Bun.CryptoHasher.hash('sha256', JSON.stringify(parts), 'hex') as string).slice(0, 32)
const cap = (s: string) => (s.length > LABEL_MAX ? `${s.slice(0, LABEL_MAX - 1)}…` : s)

/** The key parts and label of rules 2 to 4 (what `{{ default }}` stands for). */
function defaultGrouping(input: GroupingInput): { parts: string[]; label: string } {
  const top = input.frames.length ? topFrame(input.frames) : undefined
  if (top && namesCode(top)) {
    const [key, label] = frameKey(top)
    return { parts: ['stack', input.errorType, key], label: input.errorType ? `${input.errorType} at ${label}` : label }
  }
  if (input.kind === 'auto') {
    const title = normalizeTitle(input.title)
    // A top frame that names no code gives way to type and message, never to a lower frame: below
    // anonymous bundle code there is usually only the SDK's own wrapper, the same for every error.
    return { parts: top ? ['message', input.errorType, title.toLowerCase()] : ['auto', title.toLowerCase()], label: title }
  }
  return { parts: ['title', titleKeyOf(input.title)], label: input.title }
}

const DEFAULT_TOKEN = /^\{\{\s*default\s*\}\}$/i

/** The fingerprint and label of a submission (see the rules above). */
export function groupingOf(input: GroupingInput): Grouping {
  const own = input.clientFingerprint?.filter((p) => typeof p === 'string' && p.length > 0).slice(0, 20)
  const base = defaultGrouping(input)
  if (!own?.length) return { fingerprint: hash(base.parts), label: cap(base.label) }
  const parts = own.flatMap((p) => (DEFAULT_TOKEN.test(p) ? base.parts : [p.slice(0, PART_MAX)]))
  const custom = own.filter((p) => !DEFAULT_TOKEN.test(p))
  const label = own.length === custom.length ? `custom: ${custom.join(' · ')}` : `${base.label}${custom.length ? ` · ${custom.join(' · ')}` : ''}`
  return { fingerprint: hash(['client', ...parts]), label: cap(label) }
}

/** Titles the field SDKs give the errors and freezes they file on their own: automatic captures whoever files them. */
export const isAutoTitle = (title: string): boolean => /^\s*\[(?:error|freeze)\]/i.test(title)

/** The grouping of a report as stored (title, description, source, error type): as if it were submitted now. */
export function groupingOfReport(r: { title: string; description: string; source: string; errorType: string }): Grouping {
  const stack = stackTraceSection(r.description)
  const kind = r.source === 'system' || isAutoTitle(r.title) ? 'auto' : 'player'
  return groupingOf({ kind, title: r.title, errorType: r.errorType, frames: stack ? framesOfText(stack) : [] })
}
