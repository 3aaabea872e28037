import { rmSync } from 'node:fs'
import type * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import { newId } from '../../lib/ids'
import { ArtifactBundleError } from './artifact-bundle.errors'
import { openArtifactBundle } from './artifact-bundle'
import { MAX_DEBUG_FILE } from './chunk-upload'
import { dropChunks, joinChunks } from './chunk-join'
import { createDebugFilesRepository, type DebugFileRow } from './debug-files.repository'
import type { bundleAssembleBody } from './debug-files.schemas'
import { indexArtifactBundle } from './sourcemap-index'
import type { UploadProject, Uploader } from './upload-caller'

type Deps = Pick<AppDeps, 'db' | 'files' | 'clock'>

/** The answer of `artifactbundle/assemble`, in Sentry's shape. */
export interface BundleAnswer {
  state: 'ok' | 'not_found' | 'error'
  missingChunks: string[]
  detail: string | null
}

/** How the screen names a bundle: its minified file, or the first and how many more. */
function bundleName(urls: string[]): string {
  const names = [...new Set(urls)]
  if (names.length === 0) return 'artifact bundle'
  return names.length === 1 ? names[0]! : `${names[0]} and ${names.length - 1} more`
}

/** Opens and indexes the joined bundle: the row's fields besides where it is stored, or the reason it is refused. */
async function readBundle(path: string, body: z.output<typeof bundleAssembleBody>) {
  try {
    const bundle = await openArtifactBundle(Bun.file(path))
    const entries = indexArtifactBundle(bundle)
    const debugIds = [...new Set(entries.map((e) => e.debugId))]
    return {
      name: bundleName(entries.flatMap((e) => (e.url ? [e.url] : []))),
      debugId: debugIds[0] ?? null,
      debugIds: debugIds.length ? debugIds.join(' ') : null,
      release: body.version ?? bundle.release,
      dist: body.dist ?? bundle.dist,
      detail: entries.length ? null : 'the bundle holds no source map a minified file names',
    }
  } catch (err) {
    if (err instanceof ArtifactBundleError) return err.message
    throw err
  }
}

/**
 * Sentry's `artifactbundle/assemble` (sentry-cli `sourcemaps upload`): the bundle's chunks are joined
 * and checked against its SHA-1, its manifest read and indexed by debug id, and a copy stored for
 * each project named (each project deletes its own). Missing chunks are answered as such; a bundle
 * that cannot be read is an `error` with the reason in `detail`.
 */
export async function assembleBundle(deps: Deps, uploader: Uploader, projects: UploadProject[], body: z.output<typeof bundleAssembleBody>): Promise<BundleAnswer> {
  const { db, files, clock } = deps
  const repo = createDebugFilesRepository({ db })
  const checksum = body.checksum.toLowerCase()
  const pending: UploadProject[] = []
  for (const project of projects) if (!(await repo.byChecksum(project.id, checksum))) pending.push(project)
  if (pending.length === 0) return { state: 'ok', missingChunks: [], detail: null }
  const joined = await joinChunks(deps, uploader, checksum, body.chunks)
  if ('missing' in joined) return { state: 'not_found', missingChunks: joined.missing, detail: null }
  if ('error' in joined) return { state: 'error', missingChunks: [], detail: joined.error }
  const read = await readBundle(joined.path, body)
  if (typeof read === 'string') {
    rmSync(joined.path, { force: true })
    await dropChunks(deps, uploader, body.chunks)
    return { state: 'error', missingChunks: [], detail: read }
  }
  let source: Blob = Bun.file(joined.path)
  for (const project of pending) {
    const stored = await files.store(db, { data: source, fileName: 'bundle.zip', kind: 'debug-file', maxBytes: MAX_DEBUG_FILE })
    const row: DebugFileRow = {
      id: newId(), projectId: project.id, kind: 'source_bundle', arch: null, codeId: null, size: joined.size, checksum, fileKey: stored.key, indexKey: null,
      uploadedAt: clock.now(), crashesSymbolicated: 0, ...read,
    }
    if (!(await repo.insert(row))) await files.remove(db, [stored.key])
    // The temp file was moved into storage: later projects copy the stored one.
    source = (await files.open(db, stored.key))?.body ?? source
  }
  rmSync(joined.path, { force: true })
  await dropChunks(deps, uploader, body.chunks)
  return { state: 'ok', missingChunks: [], detail: read.detail }
}
