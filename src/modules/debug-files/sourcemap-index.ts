import type { ArtifactBundle, ArtifactFile } from './artifact-bundle'

/** One way to find a source map in a bundle: by debug id, or by the minified file's URL (`~/game.js`). */
export interface SourceMapIndexEntry {
  debugId: string | null
  /** The minified file's URL as uploaded, for the release + dist + `abs_path` fallback. */
  url: string | null
  /** The map's path inside the bundle. */
  sourceMapPath: string
}

/** `~/js/game.js` + `game.js.map` → `~/js/game.js.map`; an absolute reference stays as it is. */
export function resolveSourceMapUrl(fileUrl: string, reference: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference) || reference.startsWith('~/')) return reference
  const base = fileUrl.slice(0, fileUrl.lastIndexOf('/') + 1)
  const parts: string[] = []
  for (const part of `${base}${reference}`.split('/')) {
    if (part === '..' && parts.length > 1) parts.pop()
    else if (part !== '.') parts.push(part)
  }
  return parts.join('/')
}

/** The map a minified file uses: same debug id first, else its `sourcemap` header resolved against its URL. */
function mapOf(file: ArtifactFile, maps: ArtifactFile[]): ArtifactFile | undefined {
  if (file.debugId) {
    const same = maps.find((m) => m.debugId === file.debugId)
    if (same) return same
  }
  if (!file.url || !file.sourceMap) return undefined
  const wanted = resolveSourceMapUrl(file.url, file.sourceMap)
  return maps.find((m) => m.url === wanted)
}

/**
 * The lookups a bundle answers: each minified file with the map it uses (by its debug id and URL),
 * and each map with a debug id of its own even when its minified file was not uploaded.
 */
export function indexArtifactBundle(bundle: Pick<ArtifactBundle, 'files'>): SourceMapIndexEntry[] {
  const maps = bundle.files.filter((f) => f.type === 'source_map')
  const out: SourceMapIndexEntry[] = []
  const seen = new Set<string>()
  const add = (e: SourceMapIndexEntry) => {
    const key = `${e.debugId}\n${e.url}\n${e.sourceMapPath}`
    if (!seen.has(key)) { seen.add(key); out.push(e) }
  }
  for (const file of bundle.files) {
    if (file.type !== 'minified_source') continue
    const map = mapOf(file, maps)
    if (map) add({ debugId: file.debugId ?? map.debugId, url: file.url, sourceMapPath: map.path })
  }
  const covered = new Set(out.map((e) => e.debugId))
  for (const map of maps) if (map.debugId && !covered.has(map.debugId)) add({ debugId: map.debugId, url: null, sourceMapPath: map.path })
  return out
}
