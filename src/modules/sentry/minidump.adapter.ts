import type { StoredFile } from '../../files/storage'
import type { Project } from '../projects/projects.repository'
import { AppError } from '../../http/errors'
import type { StackFrame } from '../ingest/stack'
import type { Submission } from '../ingest/submission'
import type { OtherThread, SymbolicatedStack } from './minidump-symbols'
import { crashLocation, minidumpTitle, minidumpTopFrame } from './minidump/minidump-title'
import { parseMinidump } from './minidump/minidump-parser'
import type { ParsedMinidump } from './minidump/minidump.types'
import { MinidumpError } from './minidump/minidump.errors'
import { trimToJsonBytes } from './protocol/metadata-trim'

/** Most bytes of metadata a submission keeps (the SDK submit's 16 KB). */
const MAX_METADATA_BYTES = 16 * 1024
/** Modules listed in the metadata at most; the dump itself keeps them all. */
const MAX_LISTED_MODULES = 150
/** Modules without symbols listed at most: a crashed stack crosses few modules, a hostile one many. */
const MAX_MISSING_SYMBOLS = 20
/** Characters the other threads take in a description at most (the description keeps 50 000 in all). */
const MAX_OTHER_THREADS_CHARS = 24_000

/** Reads a minidump; an unreadable one is a 400 naming why. */
export function readMinidump(bytes: Uint8Array): ParsedMinidump {
  try {
    return parseMinidump(bytes)
  } catch (err) {
    if (err instanceof MinidumpError) throw new AppError(400, `the minidump cannot be read: ${err.message}`)
    throw err
  }
}

/** `Windows 10.0.19045 Service Pack 1`, `Linux 5.15.0 (Ubuntu 22.04.3 LTS)`. */
function osOf(dump: ParsedMinidump): string {
  const s = dump.system
  if (!s) return ''
  const distro = s.distribution?.description ?? null
  return [s.os, s.osVersion, s.osBuild && !distro ? s.osBuild : null, distro && `(${distro})`].filter(Boolean).join(' ').slice(0, 500)
}

/** `amd64, 8 CPUs, Intel(R) Core(TM) i7-9700K`. */
function cpuOf(dump: ParsedMinidump): string {
  const s = dump.system
  if (!s) return ''
  return [s.arch, s.cpuCount ? `${s.cpuCount} CPUs` : null, s.cpuModel ?? s.cpuInfo].filter(Boolean).join(', ').slice(0, 500)
}

/**
 * The modules of the crashed stack without symbols in the project, with the PDB (or binary) their
 * symbols are made from: as the symbolicator found them, else (nothing walked) the crashing module.
 */
function missingSymbolsOf(dump: ParsedMinidump, symbols: SymbolicatedStack | null): { module: string; debug_id: string; debug_file: string | null }[] {
  const crashing = dump.modules.find((m) => m.name === dump.crashSite?.module)
  const missing = symbols?.missingSymbols ?? (crashing?.debugId ? [{ module: crashing.name, debugId: crashing.debugId }] : [])
  return missing.slice(0, MAX_MISSING_SYMBOLS).map((m) => ({
    module: m.module,
    debug_id: m.debugId,
    debug_file: dump.modules.find((d) => d.debugId?.toUpperCase() === m.debugId.toUpperCase())?.debugFile ?? null,
  }))
}

/** What the dump says, as metadata: system, exception, crash site, modules without symbols and the modules (as many as fit in 16 KB). */
function minidumpMetadata(dump: ParsedMinidump, symbols: SymbolicatedStack | null, symbolicated: boolean): Record<string, unknown> {
  const modules = dump.modules.slice(0, MAX_LISTED_MODULES).map((m) => ({ name: m.name, version: m.version, base: m.baseAddress, size: m.size, debug_id: m.debugId, debug_file: m.debugFile }))
  const meta = {
    os: osOf(dump),
    cpu: cpuOf(dump),
    exception: dump.exception && { name: dump.exception.name, reason: dump.exception.reason, address: dump.exception.address, thread_id: dump.exception.threadId },
    crash_site: crashLocation(dump),
    symbolicated,
    missing_symbols: missingSymbolsOf(dump, symbols),
    module_count: dump.modules.length,
    modules,
  }
  // Modules go first when it does not fit: drop from the end of the list, whole entries.
  let listed = modules.length
  while (listed > 0 && Buffer.byteLength(JSON.stringify({ ...meta, modules: modules.slice(0, listed) })) > MAX_METADATA_BYTES - 2048) listed = Math.floor(listed * 0.8)
  return { ...meta, modules: modules.slice(0, listed) }
}

/**
 * A submission with what a minidump tells: when the event named no exception (a native crash),
 * the exception from the dump titles it and its crashed thread's frames group it. With the
 * project's symbols (`symbols`, debug-files) those are the walked frames with functions, files and
 * lines (`EXCEPTION_ACCESS_VIOLATION_WRITE in CrashFunction`); without, the crashing module and
 * offset (`… at game.exe+0x1a2b3c`). The OS and CPU fill the report's fields when empty; the dump's
 * facts and module list go in its metadata.
 */
export function withMinidump(s: Submission, dump: ParsedMinidump, symbols: SymbolicatedStack | null = null): Submission {
  const top = minidumpTopFrame(dump)
  const named = Boolean(s.exceptions?.length)
  const frames = symbols?.frames.length ? symbols.frames : null
  const symbol = frames?.find((f) => f.function)?.function
  const title = symbol ? `${dump.exception?.name ?? 'Crash'} in ${symbol}` : minidumpTitle(dump)
  const metadata = trimToJsonBytes({ ...(isRecord(s.metadata) ? s.metadata : {}), minidump: minidumpMetadata(dump, symbols, Boolean(frames)) }, MAX_METADATA_BYTES)
  return {
    ...s,
    kind: 'auto',
    category: 'crash',
    title: named ? s.title : title,
    description: named ? s.description : describeNativeCrash(title, frames ?? crashLocation(dump), s.description === s.title ? '' : s.description, frames ? (symbols?.otherThreads ?? []) : []),
    exceptions: named ? s.exceptions : [{ type: dump.exception?.name ?? 'Minidump', value: dump.exception?.reason ?? '', frames: frames ?? (top ? [{ ...top, inApp: true }] : []) }],
    osInfo: s.osInfo || osOf(dump),
    deviceInfo: s.deviceInfo || cpuOf(dump),
    metadata,
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A `--- Name ---` line opening a section of a description. */
const SECTION_HEADING = /^---\s*[A-Za-z][A-Za-z ]*---/m

/** `at CrashFunction [test_app.cc : 58] (test_app.exe+0x1038)`, or the module and offset alone. */
const frameLine = (f: StackFrame) =>
  `  at ${[f.function, f.file ? `[${f.file}${f.line ? ` : ${f.line}` : ''}]` : null, f.function ? `(${f.module ?? '?'}+${f.address ?? '?'})` : `${f.module ?? '?'}+${f.address ?? '?'}`].filter(Boolean).join(' ')}`

/**
 * `--- Other Threads ---` with a `Thread <id>` heading and the frames of each, as many threads as fit
 * in MAX_OTHER_THREADS_CHARS (then how many were left out); null without other threads.
 */
function otherThreadsSection(threads: OtherThread[]): string | null {
  if (!threads.length) return null
  const blocks: string[] = []
  let chars = 0
  for (const t of threads) {
    const block = `Thread ${t.id}\n${t.frames.length ? t.frames.map(frameLine).join('\n') : '  (no frames)'}`
    if (chars + block.length > MAX_OTHER_THREADS_CHARS) break
    blocks.push(block)
    chars += block.length + 2
  }
  const left = threads.length - blocks.length
  return `--- Other Threads ---\n${blocks.join('\n\n')}${left ? `\n\n(${left} more threads not listed)` : ''}`
}

/**
 * The dump's title, a note when nothing is symbolicated, the event's own text, then the stack trace
 * (the walked frames, else the crashing frame) and the other threads before the event's other
 * sections (its breadcrumbs).
 */
function describeNativeCrash(title: string, where: StackFrame[] | string | null, eventText: string, otherThreads: OtherThread[]): string {
  const heading = eventText.search(SECTION_HEADING)
  const message = (heading === -1 ? eventText : eventText.slice(0, heading)).trim()
  const sections = heading === -1 ? '' : `\n\n${eventText.slice(heading).trim()}`
  const walked = Array.isArray(where)
  const stack = walked ? `--- Stack Trace ---\n${where.map(frameLine).join('\n')}` : `--- Stack Trace ---\n  at ${where ?? 'unknown address'} [in app]`
  const note = walked ? null : 'Not symbolicated: the frame is the crashing module and the offset in it.'
  return [title, note, message, stack, otherThreadsSection(otherThreads)].filter(Boolean).join('\n\n') + sections
}

/** A description split: the paragraphs before its first section, then each section (from its `--- Name ---` line) with its text. */
function sectionsOf(text: string): { preamble: string[]; sections: { heading: string; text: string }[] } {
  const at = text.search(SECTION_HEADING)
  const head = (at === -1 ? text : text.slice(0, at)).trim()
  const rest = at === -1 ? '' : text.slice(at)
  const sections = rest.split(/(?=^---\s*[A-Za-z][A-Za-z ]*---)/m).filter(Boolean).map((t) => ({ heading: t.split('\n', 1)[0]!.trim(), text: t }))
  return { preamble: head ? head.split('\n\n') : [], sections }
}

/**
 * A description `withMinidump` wrote, less what it wrote: the event's own text (its message and
 * sections such as breadcrumbs). What it wrote is known by writing it again for the same dump
 * (`layouts`): its title (the first paragraph, however symbols named it), its other paragraphs
 * before the stack (the note) and its own sections (the stack trace, any other it adds).
 */
function eventTextOf(description: string, layouts: string[]): string {
  const own = layouts.map(sectionsOf)
  const ownParagraphs = new Set(own.flatMap((l) => l.preamble))
  const ownHeadings = new Set(own.flatMap((l) => l.sections.map((x) => x.heading)))
  const stored = sectionsOf(description)
  const message = stored.preamble.slice(1).filter((p) => !ownParagraphs.has(p))
  const sections = stored.sections.filter((x) => !ownHeadings.has(x.heading)).map((x) => x.text)
  return [message.join('\n\n'), sections.join('').trim()].filter(Boolean).join('\n\n')
}

/**
 * A crash filed from a dump (`filed`: its report as stored), filed again from `dump` with the
 * symbols the project has now (null: none): the title, description, frames and metadata
 * `withMinidump` gives, with the event's own text in the description kept.
 */
export function refiledFromMinidump(filed: Submission, dump: ParsedMinidump, symbols: SymbolicatedStack | null): Submission {
  const blank: Submission = { ...filed, title: '', description: '', exceptions: undefined }
  const layouts = [withMinidump(blank, dump, null), withMinidump(blank, dump, symbols)].map((s) => s.description)
  return withMinidump({ ...blank, description: eventTextOf(filed.description, layouts) }, dump, symbols)
}

/** A crash from a minidump alone (no Sentry event came with it). */
export function submissionOfMinidump(project: Project, dump: ParsedMinidump, files: { attachments: StoredFile[] }, client: string, symbols: SymbolicatedStack | null = null): Submission {
  return withMinidump({ project, kind: 'auto', title: '', description: '', client, attachments: files.attachments }, dump, symbols)
}
