import type { AppDeps } from '../../app-deps'
import { notFound } from '../../http/errors'
import { createDebugFilesRepository, type DebugFileRow } from './debug-files.repository'

/** An upload as the "Debug files" screen lists it. */
export function debugFileView(row: DebugFileRow) {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    arch: row.arch,
    debug_id: row.debugId,
    code_id: row.codeId,
    release: row.release,
    dist: row.dist,
    size: row.size,
    uploaded_at: row.uploadedAt.toISOString(),
    crashes_symbolicated: row.crashesSymbolicated,
    detail: row.detail,
  }
}

/** A project's uploads, newest first. */
export async function listDebugFiles(deps: Pick<AppDeps, 'db'>, projectId: string) {
  return (await createDebugFilesRepository({ db: deps.db }).ofProject(projectId)).map(debugFileView)
}

/** Deletes one upload with its stored file and index; 404 when the project has none with that id. */
export async function deleteDebugFile(deps: Pick<AppDeps, 'db' | 'files'>, projectId: string, id: string) {
  const repo = createDebugFilesRepository({ db: deps.db })
  const row = await repo.byId(projectId, id)
  if (!row) throw notFound('debug file not found')
  await repo.remove(projectId, id)
  await deps.files.remove(deps.db, row.indexKey ? [row.fileKey, row.indexKey] : [row.fileKey])
  return { message: 'Debug file deleted' }
}
