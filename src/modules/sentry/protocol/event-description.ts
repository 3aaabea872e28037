import type { ExceptionInfo, StackFrame } from '../../ingest/stack'
import { isObject, listOf, scalarText, text, timestampOf } from './values'

/** Most breadcrumbs shown (the latest ones). */
export const MAX_BREADCRUMBS = 100

// Budgets that keep the description within the reports' 50,000 characters, each section whole.
const HEAD_MAX = 8_000
const STACK_MAX = 30_000
const LOGS_MAX = 11_000
const LINE_MAX = 400

const clipLine = (s: string) => (s.length > LINE_MAX ? `${s.slice(0, LINE_MAX - 1)}…` : s)

/** `  at function (file:line:column)`, or the module and address for native frames; in-app frames marked. */
export function frameLine(f: StackFrame): string {
  let where = ''
  if (f.file) where = `${f.file}${f.line !== undefined ? `:${f.line}${f.column !== undefined ? `:${f.column}` : ''}` : ''}`
  else if (f.module || f.address) where = [f.module, f.address].filter(Boolean).join(' ')
  const line = clipLine(`  at ${f.function ?? '?'}${where ? ` (${where})` : ''}${f.inApp ? ' [in app]' : ''}`)
  // Local variables and source lines on lines of their own under the frame (stack-text.ts reads past them).
  const out = f.vars ? [line, clipLine(`      locals: ${Object.entries(f.vars).map(([k, v]) => `${k}=${v}`).join(', ')}`)] : [line]
  if (f.context && f.line !== undefined) out.push(...sourceLines(f.context, f.line))
  return out.join('\n')
}

/** `      12 > code` for the frame's line, `      11 | code` around it. */
function sourceLines(context: NonNullable<StackFrame['context']>, at: number): string[] {
  const first = at - context.pre.length
  return [...context.pre, context.line, ...context.post].map((code, i) => clipLine(`      ${first + i} ${first + i === at ? '>' : '|'} ${code}`.trimEnd()))
}

/** `Type: value`, or whichever of the two is there. */
export const exceptionLine = (e: Pick<ExceptionInfo, 'type' | 'value'>) => (e.type && e.value ? `${e.type}: ${e.value}` : e.type || e.value)

/** Lines added while they fit in `budget` characters, then a line saying how many were left out. */
function within(lines: string[], budget: number, what: string): string[] {
  const out: string[] = []
  let used = 0
  for (const [i, line] of lines.entries()) {
    if (used + line.length + 1 > budget) {
      out.push(`  … ${lines.length - i} more ${what}`)
      break
    }
    out.push(line)
    used += line.length + 1
  }
  return out
}

/** The Stack Trace section's lines: the primary exception's frames, then each cause under `Caused by:`. */
function stackLines(exceptions: ExceptionInfo[], frames: StackFrame[]): string[] {
  if (!exceptions.length) return frames.map(frameLine)
  return exceptions.flatMap((e, i) => [...(i ? [clipLine(`Caused by: ${exceptionLine(e)}`)] : []), ...e.frames.map(frameLine)])
}

const pad = (n: number) => String(n).padStart(2, '0')
const timeText = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
const LEVELS: Record<string, string> = { debug: 'Debug', info: 'Info', log: 'Log', warning: 'Warning', error: 'Error', fatal: 'Fatal', critical: 'Critical' }

/** Compact text of a breadcrumb's `data` (an HTTP call's method, URL and status, say). */
function dataText(data: unknown): string {
  if (!isObject(data)) return ''
  const http = [scalarText(data.method, 10), text(data.url, 300), scalarText(data.status_code, 10)].filter(Boolean)
  if (http.length > 1) return http.join(' ')
  const json = JSON.stringify(data)
  return json === '{}' ? '' : json.slice(0, 200)
}

/** `[2024-05-01 10:00:00] [Info] category: message` for one breadcrumb; null when it says nothing. */
export function breadcrumbLine(crumb: unknown): string | null {
  if (!isObject(crumb)) return null
  const message = text(crumb.message, LINE_MAX)?.replace(/\s+/g, ' ').trim() || dataText(crumb.data)
  const category = text(crumb.category, 100)
  if (!message && !category) return null
  const at = timestampOf(crumb.timestamp)
  const levelName = text(crumb.level, 20)?.toLowerCase() ?? 'info'
  const level = LEVELS[levelName] ?? levelName
  return clipLine(`${at ? `[${timeText(at)}] ` : ''}[${level}] ${category ? `${category}${message ? ': ' : ''}` : ''}${message}`)
}

export interface DescriptionParts {
  /** The event's message, null when it has none. */
  message: string | null
  /** Primary exception first. */
  exceptions: ExceptionInfo[]
  /** Frames shown when there is no exception (the event's own stack trace or the crashed thread's). */
  frames: StackFrame[]
  breadcrumbs: unknown
}

/**
 * The report description, in the layout of the SDK's auto-filed errors: the message (and the
 * exception line when it differs), then `--- Stack Trace ---` with frames innermost first, then
 * `--- Recent Logs ---` with the latest breadcrumbs; each part cut to its budget.
 */
export function describeEvent({ message, exceptions, frames, breadcrumbs }: DescriptionParts): string {
  const primary = exceptions[0] ? exceptionLine(exceptions[0]) : ''
  const head = [message, primary && primary !== message ? primary : null].filter(Boolean).join('\n').slice(0, HEAD_MAX)
  const sections: string[] = [head]
  const stack = stackLines(exceptions, frames)
  if (stack.length) sections.push(`--- Stack Trace ---\n${within(stack, STACK_MAX, 'lines').join('\n')}`)
  const crumbs = listOf(breadcrumbs)
  const logs = crumbs
    .slice(-MAX_BREADCRUMBS)
    .map(breadcrumbLine)
    .filter((l): l is string => l !== null)
  // The latest breadcrumbs matter most: past the budget the oldest go.
  if (logs.length) sections.push(`--- Recent Logs ---\n${within(logs.reverse(), LOGS_MAX, 'older lines').reverse().join('\n')}`)
  return sections.filter(Boolean).join('\n\n')
}
