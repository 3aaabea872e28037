import type { AppDeps } from '../../app-deps'
import { openArtifactBundle, type ArtifactBundle } from './artifact-bundle'
import { createDebugFilesRepository, type SourceBundleRow } from './debug-files.repository'
import { symbolicateJsEvent } from './sourcemap-event'
import type { SourceMapStore } from './sourcemap-frames'
import { indexArtifactBundle, type SourceMapIndexEntry } from './sourcemap-index'

type Json = Record<string, unknown>

/**
 * A Sentry event mapped through the source bundles THIS project uploaded (newest first), counting the
 * bundles used; null when no frame was mapped. The project's bundle rows are read only once a frame
 * with a line and column asks for a map, so events without JavaScript frames cost no query.
 */
export async function mapEventWithProjectMaps(deps: Pick<AppDeps, 'db' | 'files'>, projectId: string, event: Json): Promise<Json | null> {
  const { db, files } = deps
  const repo = createDebugFilesRepository({ db })
  let rows: Promise<SourceBundleRow[]> | null = null
  const bundles = new Map<string, Promise<{ bundle: ArtifactBundle; entries: SourceMapIndexEntry[] } | null>>()
  const used = new Set<string>()
  const open = (row: SourceBundleRow) => {
    let pending = bundles.get(row.id)
    if (!pending) {
      pending = files.open(db, row.fileKey).then(async (opened) => {
        if (!opened) return null
        const bundle = await openArtifactBundle(opened.body)
        return { bundle, entries: indexArtifactBundle(bundle) }
      })
      bundles.set(row.id, pending)
    }
    return pending
  }
  /** The first map, among these rows, of an index entry `pick` accepts. */
  const firstMap = async (candidates: SourceBundleRow[], pick: (e: SourceMapIndexEntry) => boolean): Promise<string | null> => {
    for (const row of candidates) {
      const opened = await open(row)
      const hit = opened?.entries.find(pick)
      if (!opened || !hit) continue
      used.add(row.id)
      return opened.bundle.readText(hit.sourceMapPath)
    }
    return null
  }
  const store: SourceMapStore = {
    byDebugId: async (debugId) => firstMap((await (rows ??= repo.sourceBundlesOf(projectId))).filter((r) => r.debugIds?.split(' ').includes(debugId)), (e) => e.debugId === debugId),
    byUrl: async ({ release, dist, url }) => firstMap((await (rows ??= repo.sourceBundlesOf(projectId))).filter((r) => r.release === release && r.dist === dist), (e) => e.url === url),
  }
  const { event: out, mapped } = await symbolicateJsEvent(event, store)
  if (!mapped) return null
  await repo.countSymbolicated([...used])
  return out
}
