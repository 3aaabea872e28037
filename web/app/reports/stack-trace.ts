/**
 * A stack trace as the report page shows it: the game's own frames emphasised, runs of engine,
 * runtime and system frames folded (pure, tested). Frames are read with the server's own parsers and
 * in-app rules (pure modules of src/modules/ingest, imported by value: see web/app/README.md), so the
 * page emphasises the frames grouping keys on.
 */
import { isInApp } from '../../../src/modules/ingest/in-app'
import { parseFrameLine } from '../../../src/modules/ingest/stack-text'

export interface TraceLine {
  text: string
  /** A frame, a line under one (its `locals:`, Python's source line), or anything else (the exception line, "Caused by:"). */
  kind: 'frame' | 'detail' | 'other'
  inApp: boolean
}

/** A part of the trace: lines shown as they are, or a run of other code's frames folded behind one line. */
export type TraceSegment = { folded: false; lines: TraceLine[] } | { folded: true; lines: TraceLine[]; frames: number }

const IN_APP_MARK = /\s+\[in app\]\s*$/
const LOCALS = /^\s*locals:/
/** Fewer frames than this in a run stay shown: folding one frame saves nothing. */
const MIN_FOLD = 2

const indent = (s: string) => /^\s*/.exec(s)![0].length

/**
 * The lines of `text`, each frame marked in-app or not. A trace Glitchbox printed from a structured
 * event (Sentry's) marks the game's frames ` [in app]` itself: there the mark alone decides, and it is
 * dropped from the text. Other traces are judged by the same rules as grouping (`isInApp`). A
 * `locals:` line, or a deeper-indented line that is not a frame (Python's source line), belongs to
 * the frame above it.
 */
export function traceLines(text: string): TraceLine[] {
  const lines = text.split('\n')
  const marked = lines.some((l) => IN_APP_MARK.test(l))
  const python = text.includes('Traceback (most recent call last)') || /^\s*File "[^"]+", line \d+/m.test(text)
  let frame: { inApp: boolean; indent: number } | null = null
  return lines.map((raw): TraceLine => {
    const parsed = parseFrameLine(raw, python)
    if (!parsed) {
      if (frame && raw.trim() && (LOCALS.test(raw) || indent(raw) > frame.indent)) return { text: raw, kind: 'detail', inApp: frame.inApp }
      frame = null
      return { text: raw, kind: 'other', inApp: false }
    }
    const inApp = marked ? IN_APP_MARK.test(raw) : isInApp(parsed)
    frame = { inApp, indent: indent(raw) }
    return { text: marked ? raw.replace(IN_APP_MARK, '') : raw, kind: 'frame', inApp }
  })
}

/**
 * Groups lines into segments: runs of at least two frames that are not the game's (with the lines
 * under them) fold; everything else shows. A trace without any in-app frame folds nothing, since
 * there would be nothing left to read.
 */
export function foldTrace(lines: TraceLine[]): TraceSegment[] {
  if (!lines.some((l) => l.kind === 'frame' && l.inApp)) return [{ folded: false, lines }]
  const segments: TraceSegment[] = []
  let run: TraceLine[] = []
  const push = (folded: boolean, group: TraceLine[]) => {
    if (!group.length) return
    const last = segments.at(-1)
    if (!folded && last && !last.folded) last.lines.push(...group)
    else segments.push(folded ? { folded: true, lines: group, frames: group.filter((l) => l.kind === 'frame').length } : { folded: false, lines: group })
  }
  const flush = () => {
    const frames = run.filter((l) => l.kind === 'frame').length
    push(frames >= MIN_FOLD, run)
    run = []
  }
  for (const line of lines) {
    const other = line.kind !== 'other' && !line.inApp
    if (other) run.push(line)
    else {
      flush()
      push(false, [line])
    }
  }
  flush()
  return segments
}
