import { mapJsFrames, type JsFrame, type SourceMapStore } from './sourcemap-frames'

/** Most exceptions and frames per stack mapped, as the event mapping reads them (the innermost ones). */
const MAX_EXCEPTIONS = 20
const MAX_FRAMES = 250

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The stack traces of an event: its exceptions', its threads' and its own. */
function stacktracesOf(event: Json): Json[] {
  const out: Json[] = []
  const values = isObject(event.exception) ? event.exception.values : event.exception
  for (const v of Array.isArray(values) ? values.slice(-MAX_EXCEPTIONS) : []) if (isObject(v) && isObject(v.stacktrace)) out.push(v.stacktrace)
  const threads = isObject(event.threads) ? event.threads.values : event.threads
  for (const t of Array.isArray(threads) ? threads.slice(0, MAX_EXCEPTIONS) : []) if (isObject(t) && isObject(t.stacktrace)) out.push(t.stacktrace)
  if (isObject(event.stacktrace)) out.push(event.stacktrace)
  return out
}

/**
 * A copy of a Sentry JavaScript event whose frames are mapped through the project's source maps,
 * in Sentry's own frame fields (`function`, `filename`, `abs_path`, `lineno`, `colno`, `pre_context`,
 * `context_line`, `post_context`), so the event mapping and grouping read original names. The
 * minified position is kept in the frame's `data.minified`; a minified name the map cannot replace is
 * dropped (it changes with every build, so it must not group); a frame from `node_modules` is not in-app.
 * `mapped` counts the frames changed; with none, the event is returned as it was.
 */
export async function symbolicateJsEvent(event: Json, store: SourceMapStore): Promise<{ event: Json; mapped: number }> {
  const copy = structuredClone(event)
  let mapped = 0
  for (const stacktrace of stacktracesOf(copy)) {
    if (!Array.isArray(stacktrace.frames)) continue
    const frames = stacktrace.frames.slice(-MAX_FRAMES).filter(isObject)
    const results = await mapJsFrames({ frames: frames as JsFrame[], event: { images: isObject(copy.debug_meta) && Array.isArray(copy.debug_meta.images) ? copy.debug_meta.images : [], release: typeof copy.release === 'string' ? copy.release : null, dist: typeof copy.dist === 'string' ? copy.dist : null }, store })
    results.forEach((m, i) => {
      const frame = frames[i]!
      if (!m) return
      mapped++
      frame.data = { ...(isObject(frame.data) ? frame.data : {}), minified: `${frame.abs_path ?? frame.filename}:${frame.lineno}:${frame.colno}` }
      Object.assign(frame, { filename: m.file, abs_path: m.absPath, lineno: m.line, colno: m.column, pre_context: m.preContext, context_line: m.contextLine, post_context: m.postContext })
      if (m.function) frame.function = m.function
      else delete frame.function
      if (/(^|\/)node_modules\//.test(m.file)) frame.in_app = false
    })
  }
  return { event: mapped ? copy : event, mapped }
}
