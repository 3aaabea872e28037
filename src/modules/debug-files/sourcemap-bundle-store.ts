import type { ArtifactBundle } from './artifact-bundle'
import { indexArtifactBundle } from './sourcemap-index'
import type { SourceMapStore } from './sourcemap-frames'

/**
 * A SourceMapStore over bundles already opened, for one project: what a stored project's uploads
 * answer once their index rows are loaded, and what tests map against. The newest bundle wins.
 */
export function bundleSourceMapStore(bundles: readonly ArtifactBundle[]): SourceMapStore {
  const indexed = [...bundles].reverse().map((bundle) => ({ bundle, entries: indexArtifactBundle(bundle) }))
  return {
    async byDebugId(debugId) {
      for (const { bundle, entries } of indexed) {
        const hit = entries.find((e) => e.debugId === debugId)
        if (hit) return bundle.readText(hit.sourceMapPath)
      }
      return null
    },
    async byUrl({ release, dist, url }) {
      for (const { bundle, entries } of indexed) {
        if (bundle.release !== release || bundle.dist !== dist) continue
        const hit = entries.find((e) => e.url === url)
        if (hit) return bundle.readText(hit.sourceMapPath)
      }
      return null
    },
  }
}
