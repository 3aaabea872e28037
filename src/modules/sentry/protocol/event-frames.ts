import type { ExceptionInfo, StackFrame } from '../../ingest/stack'
import { isObject, listOf, num, obj, text } from './values'

/** Most frames kept per exception (the innermost ones), and most exceptions per chain (the last ones). */
export const MAX_FRAMES = 200
export const MAX_EXCEPTIONS = 20

const TEXT_MAX = 500

/** An instruction address as hex text; SDKs send `0x…` strings, a few send numbers. */
function addressOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return `0x${v.toString(16)}`
  const s = text(v, 40)
  return s && /^0x[0-9a-f]+$/i.test(s) ? s.toLowerCase() : undefined
}

const lineNumber = (v: unknown) => {
  const n = num(v)
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

/** One Sentry frame in the common shape; undefined when it carries nothing to show. */
function frameOf(v: unknown): StackFrame | undefined {
  if (!isObject(v)) return undefined
  const frame: StackFrame = {}
  const fn = text(v.function, TEXT_MAX) ?? text(v.raw_function, TEXT_MAX) ?? text(v.symbol, TEXT_MAX)
  const module = text(v.module, TEXT_MAX) ?? text(v.package, TEXT_MAX)
  const file = text(v.filename, TEXT_MAX) ?? text(v.abs_path, TEXT_MAX)
  const line = lineNumber(v.lineno)
  const column = lineNumber(v.colno)
  const address = addressOf(v.instruction_addr)
  if (fn) frame.function = fn
  if (module) frame.module = module
  if (file) frame.file = file
  if (line !== undefined) frame.line = line
  if (column !== undefined) frame.column = column
  if (address) frame.address = address
  if (typeof v.in_app === 'boolean') frame.inApp = v.in_app
  const vars = varsOf(v.vars)
  if (vars) frame.vars = vars
  const context = mappedContextOf(v)
  if (context) frame.context = context
  return Object.keys(frame).length ? frame : undefined
}

/** Most lines of source kept on each side of a frame's line, and the longest line. */
const CONTEXT_LINES = 5
const CONTEXT_LINE_MAX = 200

/**
 * The original source around a frame a source map placed at ingest (debug-files keeps the minified
 * position in `data.minified`); undefined for other frames. Only mapped frames keep it: their
 * original code is on no player's machine, so this is the one place a triager sees it.
 */
function mappedContextOf(v: Record<string, unknown>): StackFrame['context'] {
  if (!isObject(v.data) || typeof v.data.minified !== 'string' || typeof v.context_line !== 'string') return undefined
  const lines = (x: unknown) => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string').map((s) => s.slice(0, CONTEXT_LINE_MAX)) : [])
  return { pre: lines(v.pre_context).slice(-CONTEXT_LINES), line: v.context_line.slice(0, CONTEXT_LINE_MAX), post: lines(v.post_context).slice(0, CONTEXT_LINES) }
}

/** Most local variables kept per frame, and the longest value shown. */
const MAX_VARS = 12
const VAR_MAX = 120

/** A frame's local variables (Python's SDK sends them) as short printed values; undefined without any. */
function varsOf(v: unknown): Record<string, string> | undefined {
  if (!isObject(v)) return undefined
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(v).slice(0, MAX_VARS)) {
    const shown = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
    out[name.slice(0, 60)] = shown.length > VAR_MAX ? `${shown.slice(0, VAR_MAX - 1)}…` : shown
  }
  return Object.keys(out).length ? out : undefined
}

/**
 * The frames of a Sentry `stacktrace`, innermost first. Sentry lists them outermost first (the
 * crashing frame last), so the list is reversed; only the innermost `MAX_FRAMES` are read.
 */
export function framesOf(stacktrace: unknown): StackFrame[] {
  const frames = obj(stacktrace)?.frames
  if (!Array.isArray(frames)) return []
  const out: StackFrame[] = []
  for (let i = frames.length - 1; i >= 0 && out.length < MAX_FRAMES; i--) {
    const frame = frameOf(frames[i])
    if (frame) out.push(frame)
  }
  return out
}

/** The frames of the thread an exception names by `thread_id`, else of the thread marked `crashed`. */
function threadFrames(threads: unknown[], threadId: unknown, primary: boolean): StackFrame[] {
  const named = threadId === undefined || threadId === null ? undefined : threads.find((t) => isObject(t) && t.id === threadId)
  const thread = named ?? (primary ? threads.find((t) => isObject(t) && t.crashed === true) : undefined)
  return isObject(thread) ? framesOf(thread.stacktrace) : []
}

/** An exception's type and value as text, whitespace collapsed (values can hold whole log dumps). */
const oneLine = (v: unknown, max: number) => text(v, max * 4)?.replace(/\s+/g, ' ').trim().slice(0, max) ?? ''

/**
 * The exception chain of an event, the primary exception (Sentry's last one, the title) first and
 * then what caused it. An exception without frames takes those of its thread (`thread_id`) or, for
 * the primary one, of the thread marked `crashed`, as native SDKs send them.
 */
export function exceptionsOf(event: Record<string, unknown>): ExceptionInfo[] {
  const values = listOf(event.exception)
  const threads = listOf(event.threads)
  const out: ExceptionInfo[] = []
  for (let i = values.length - 1; i >= 0 && out.length < MAX_EXCEPTIONS; i--) {
    const v = values[i]
    if (!isObject(v)) continue
    const info: ExceptionInfo = { type: oneLine(v.type, 200), value: oneLine(v.value, 2000), frames: framesOf(v.stacktrace) }
    const handled = obj(v.mechanism)?.handled
    if (typeof handled === 'boolean') info.handled = handled
    if (!info.frames.length) info.frames = threadFrames(threads, v.thread_id, out.length === 0)
    if (info.type || info.value || info.frames.length) out.push(info)
  }
  return out
}

/** Frames that stand for an event without exceptions: its own `stacktrace`, else the crashed thread's. */
export function eventFrames(event: Record<string, unknown>): StackFrame[] {
  const own = framesOf(event.stacktrace)
  return own.length ? own : threadFrames(listOf(event.threads), undefined, true)
}
