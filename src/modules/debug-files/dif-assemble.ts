import { rmSync } from 'node:fs'
import type * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import { newId } from '../../lib/ids'
import { MAX_DEBUG_FILE } from './chunk-upload'
import { dropChunks, joinChunks } from './chunk-join'
import { debugFileKindOf, NOT_USED_YET } from './debug-file-kind'
import { createDebugFilesRepository, type DebugFileRow } from './debug-files.repository'
import type { difAssembleBody } from './debug-files.schemas'
import { enqueueResymbolication } from './resymbolicate'
import { buildSymIndex } from './sym-index.builder'
import { loadSymIndex } from './sym-index.reader'
import { SymError } from './sym.errors'
import type { UploadProject, Uploader } from './upload-caller'

type Deps = Pick<AppDeps, 'db' | 'files' | 'clock' | 'jobs'>
type Request = z.output<typeof difAssembleBody>[string]

/** One file's answer to `difs/assemble`, in Sentry's shape: sentry-cli sends `missingChunks`, then reads `ok` (or `error` and `detail`). */
export interface DifAnswer {
  state: 'ok' | 'not_found' | 'error'
  missingChunks: string[]
  detail: string | null
  dif: { uuid: string | null; debugId: string | null; objectName: string; cpuName: string; sha1: string; data: { features: string[] } } | null
}

const okAnswer = (row: DebugFileRow, request: Request): DifAnswer => ({
  state: 'ok',
  missingChunks: [],
  detail: row.detail,
  // The debug id as sentry-cli sent it (its own spelling): it reads the answer back with the same parser.
  dif: { uuid: null, debugId: request.debug_id ?? null, objectName: row.name, cpuName: row.arch ?? 'unknown', sha1: row.checksum, data: { features: row.kind === 'breakpad' ? ['symtab', 'unwind'] : [] } },
})
const errorAnswer = (detail: string): DifAnswer => ({ state: 'error', missingChunks: [], detail, dif: null })

/** What a Breakpad `.sym` gives the row: its lookup index (built reading the file line by line) and its MODULE and INFO CODE_ID. */
async function symbolsOf(path: string) {
  const { index, report } = await buildSymIndex(Bun.file(path).stream())
  const module = loadSymIndex(index).module
  const detail = report.skipped ? `${report.skipped} malformed lines skipped (${report.problems[0]})` : null
  return { index, module, detail }
}

/** Stores one joined file (moved out of the temp folder) with its index and row; the row the project keeps. */
async function storeDif(deps: Deps, project: UploadProject, request: Request, checksum: string, joined: { path: string; size: number }): Promise<DebugFileRow | string> {
  const { db, files, clock } = deps
  const kind = debugFileKindOf(await Bun.file(joined.path).slice(0, 64).bytes())
  let symbols: Awaited<ReturnType<typeof symbolsOf>> | null = null
  if (kind === 'breakpad') {
    try {
      symbols = await symbolsOf(joined.path)
    } catch (err) {
      if (!(err instanceof SymError)) throw err
      rmSync(joined.path, { force: true })
      return `${request.name}: ${err.message}`
    }
  }
  const name = symbols?.module.name ?? request.name.split(/[\\/]/).pop() ?? request.name
  const index = symbols && (await files.store(db, { data: symbols.index, fileName: `${name}.symindex`, kind: 'debug-file', maxBytes: MAX_DEBUG_FILE }))
  const stored = await files.store(db, { data: Bun.file(joined.path), fileName: name, kind: 'debug-file', maxBytes: MAX_DEBUG_FILE })
  const row: DebugFileRow = {
    id: newId(), projectId: project.id, kind, name, arch: symbols?.module.arch ?? null,
    debugId: symbols?.module.debugId?.toUpperCase() ?? request.debug_id ?? null, codeId: symbols?.module.codeId ?? null,
    debugIds: null, release: null, dist: null, size: joined.size, checksum: checksum.toLowerCase(), fileKey: stored.key, indexKey: index?.key ?? null,
    detail: kind === 'breakpad' ? (symbols?.detail ?? null) : NOT_USED_YET, uploadedAt: clock.now(), crashesSymbolicated: 0,
  }
  // A new `.sym` names frames of crashes filed before it: their stored dumps are symbolicated again (resymbolicate.ts).
  const inserted = await db.write(async (tx) => {
    if (!(await createDebugFilesRepository({ db: tx }).insert(row))) return false
    if (row.indexKey && row.debugId) await enqueueResymbolication(deps, tx, { projectId: project.id, debugId: row.debugId, name: row.name, uploadedAt: row.uploadedAt.toISOString() })
    return true
  })
  if (inserted) return row
  // The same file was assembled at the same time by another request: keep that one.
  await files.remove(db, index ? [stored.key, index.key] : [stored.key])
  return (await createDebugFilesRepository({ db }).byChecksum(project.id, row.checksum)) ?? row
}

/**
 * Sentry's `difs/assemble` for one project: each named file is either known already (ok), waiting for
 * chunks (`not_found` with the ones missing), or joined from the uploader's chunks, checked against
 * its SHA-1, stored with its index when it is a `.sym`, and answered ok (with a `detail` for formats
 * not used yet, and `error` with a `detail` for a `.sym` that is not one).
 */
export async function assembleDifs(deps: Deps, uploader: Uploader, project: UploadProject, body: z.output<typeof difAssembleBody>): Promise<Record<string, DifAnswer>> {
  const repo = createDebugFilesRepository({ db: deps.db })
  const answers: Record<string, DifAnswer> = {}
  for (const [checksum, request] of Object.entries(body)) {
    const known = await repo.byChecksum(project.id, checksum.toLowerCase())
    if (known) {
      answers[checksum] = okAnswer(known, request)
      continue
    }
    const joined = await joinChunks(deps, uploader, checksum, request.chunks)
    if ('missing' in joined) answers[checksum] = { state: 'not_found', missingChunks: joined.missing, detail: null, dif: null }
    else if ('error' in joined) answers[checksum] = errorAnswer(joined.error)
    else {
      const stored = await storeDif(deps, project, request, checksum, joined)
      answers[checksum] = typeof stored === 'string' ? errorAnswer(stored) : okAnswer(stored, request)
      await dropChunks(deps, uploader, request.chunks)
    }
  }
  return answers
}
