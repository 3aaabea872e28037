import { AnyMap, originalPositionFor, sourceContentFor, type TraceMap } from '@jridgewell/trace-mapping'
import { normalizeDebugId } from './artifact-bundle'
import { ArtifactBundleError } from './artifact-bundle.errors'
import { enclosingFunctionName } from './sourcemap-function-name'

/** The parts of a Sentry JavaScript frame the mapping reads (line and column 1-based, as SDKs send them). */
export interface JsFrame {
  abs_path?: string | null
  filename?: string | null
  lineno?: number | null
  colno?: number | null
  function?: string | null
}

/** A frame mapped to its original source, with Sentry's five lines of context on each side. */
export interface MappedFrame {
  /** The source as the map names it, cleaned of `webpack://` and leading `./`, `../`. */
  file: string
  /** The source exactly as the map names it. */
  absPath: string
  line: number
  /** 1-based, like the frame's `colno`. */
  column: number
  function: string | undefined
  preContext: string[]
  contextLine: string | undefined
  postContext: string[]
}

/**
 * Where the source maps come from: the project's uploads, already scoped to the project whose event
 * is being mapped (a debug id uploaded elsewhere must answer null).
 */
export interface SourceMapStore {
  /** The map of the minified file with this debug id, as text. */
  byDebugId(debugId: string): Promise<string | null>
  /** The map of the minified file uploaded at this URL (`~/game.js` or a full URL) for the release and dist. */
  byUrl(query: { release: string; dist: string | null; url: string }): Promise<string | null>
}

/** The event fields beside the frames that pick the source map. */
export interface JsEventContext {
  /** `debug_meta.images` of the event; entries of type `sourcemap` tie a `code_file` to a debug id. */
  images?: readonly unknown[] | null
  release?: string | null
  dist?: string | null
}

const CONTEXT_LINES = 5
/** Longest context line kept; minified or generated sources have lines of megabytes. */
const MAX_CONTEXT_LINE = 200

/** `code_file` → debug id from the event's `sourcemap` images. */
export function sourceMapImages(images: readonly unknown[] | null | undefined): Map<string, string> {
  const out = new Map<string, string>()
  for (const image of images ?? []) {
    if (!image || typeof image !== 'object') continue
    const { type, code_file, debug_id } = image as Record<string, unknown>
    const id = normalizeDebugId(debug_id)
    if (type === 'sourcemap' && typeof code_file === 'string' && id) out.set(code_file, id)
  }
  return out
}

/** The URLs an uploaded minified file may have been given for this `abs_path`: itself without query, then `~/path`. */
export function candidateUrls(absPath: string): string[] {
  const bare = absPath.replace(/[?#].*$/, '')
  const out = [bare]
  try {
    const path = new URL(bare).pathname
    if (path.startsWith('/')) out.push(`~${path}`)
  } catch {
    if (bare.startsWith('/')) out.push(`~${bare}`)
  }
  return [...new Set(out)]
}

const cleanSource = (source: string) => source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^(\.\.?\/)+/, '')

const cut = (line: string) => (line.length > MAX_CONTEXT_LINE ? `${line.slice(0, MAX_CONTEXT_LINE - 1)}…` : line)

/** Maps each frame it can; parses each source map once per call. */
class FrameMapper {
  private readonly maps = new Map<string, Promise<TraceMap | null>>()
  private readonly lines = new WeakMap<TraceMap, Map<string, string[] | null>>()
  private readonly images: Map<string, string>

  constructor(private readonly store: SourceMapStore, private readonly event: JsEventContext) {
    this.images = sourceMapImages(event.images)
  }

  /** The parsed map for a frame's file: by debug id, else by release, dist and URL. */
  mapFor(frame: JsFrame): Promise<TraceMap | null> {
    const absPath = frame.abs_path ?? frame.filename
    if (!absPath) return Promise.resolve(null)
    let pending = this.maps.get(absPath)
    if (!pending) {
      pending = this.load(absPath)
      this.maps.set(absPath, pending)
    }
    return pending
  }

  private async load(absPath: string): Promise<TraceMap | null> {
    try {
      return await this.find(absPath)
    } catch (err) {
      // A stored bundle that cannot be read maps nothing; it never stops the event being filed.
      if (err instanceof ArtifactBundleError) return null
      throw err
    }
  }

  private async find(absPath: string): Promise<TraceMap | null> {
    const debugId = this.images.get(absPath)
    let text = debugId ? await this.store.byDebugId(debugId) : null
    const release = this.event.release
    if (!text && release) {
      for (const url of candidateUrls(absPath)) {
        text = await this.store.byUrl({ release, dist: this.event.dist ?? null, url })
        if (text) break
      }
    }
    if (!text) return null
    try {
      return new AnyMap(text)
    } catch {
      // A map that does not parse maps nothing; the frame stays as the SDK sent it.
      return null
    }
  }

  /** The original position of a 1-based line and column, or null when the map has no segment there. */
  async position(frame: JsFrame | undefined) {
    const { lineno, colno } = frame ?? {}
    if (!frame || !Number.isSafeInteger(lineno) || !Number.isSafeInteger(colno) || lineno! < 1 || colno! < 1) return null
    const map = await this.mapFor(frame)
    if (!map) return null
    let pos: ReturnType<typeof originalPositionFor>
    try {
      pos = originalPositionFor(map, { line: lineno!, column: colno! - 1 })
    } catch {
      // Mappings are decoded on first use: a corrupt `mappings` string shows up only here.
      return null
    }
    if (pos.source === null) return null
    return { map, source: pos.source, line: pos.line, column: pos.column, name: pos.name }
  }

  sourceLines(map: TraceMap, source: string): string[] | null {
    let perMap = this.lines.get(map)
    if (!perMap) this.lines.set(map, (perMap = new Map()))
    if (!perMap.has(source)) perMap.set(source, sourceContentFor(map, source)?.split(/\r?\n/) ?? null)
    return perMap.get(source) ?? null
  }
}

/**
 * Maps Sentry JavaScript frames (outermost first, as Sentry lists them) to their original sources.
 * A frame's function is the name the map gives the token at its caller's position (the call site
 * names what it calls), else the original function enclosing the frame; null where no map applies.
 */
export async function mapJsFrames(input: { frames: readonly JsFrame[]; event: JsEventContext; store: SourceMapStore }): Promise<(MappedFrame | null)[]> {
  const mapper = new FrameMapper(input.store, input.event)
  const out: (MappedFrame | null)[] = []
  for (let i = 0; i < input.frames.length; i++) {
    const pos = await mapper.position(input.frames[i])
    if (!pos) { out.push(null); continue }
    const lines = mapper.sourceLines(pos.map, pos.source)
    const caller = i > 0 ? await mapper.position(input.frames[i - 1]) : null
    const name = caller?.name ?? (lines ? enclosingFunctionName(lines, pos.line, pos.column) : undefined)
    const at = pos.line - 1
    out.push({
      file: cleanSource(pos.source),
      absPath: pos.source,
      line: pos.line,
      column: pos.column + 1,
      function: name ?? undefined,
      preContext: lines ? lines.slice(Math.max(0, at - CONTEXT_LINES), at).map(cut) : [],
      contextLine: lines?.[at] !== undefined ? cut(lines[at]!) : undefined,
      postContext: lines ? lines.slice(at + 1, at + 1 + CONTEXT_LINES).map(cut) : [],
    })
  }
  return out
}
