import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import type { StoredFile } from '../../files/storage'
import { AppError, badRequest } from '../../http/errors'
import { newId } from '../../lib/ids'
import { attachments } from '../attachments/attachments.table'
import { decodeBase64Upload } from './base64-upload'
import { MAX_BASE64_FILE_BYTES } from './sdk.schemas'

export interface Base64File {
  filename: string
  mime_type?: string | null
  data: string
}

/**
 * Decodes and stores base64 uploads before any transaction opens (file writes are async); when one
 * fails, the ones already written are removed and the error (400 naming the field) is rethrown.
 */
export async function storeBase64Files(
  deps: Pick<AppDeps, 'db' | 'files'>,
  uploads: { file: Base64File; field: string; kind: 'attachment' | 'image' }[],
): Promise<StoredFile[]> {
  const stored: StoredFile[] = []
  try {
    for (const { file, field, kind } of uploads) {
      const { bytes, declaredType } = decodeBase64Upload(file.data, field)
      if (bytes.byteLength > MAX_BASE64_FILE_BYTES) throw badRequest(`${field}: file is too large (max 10 MB)`)
      stored.push(
        await deps.files.store(deps.db, { data: bytes, fileName: file.filename, declaredType: file.mime_type ?? declaredType, kind, maxBytes: MAX_BASE64_FILE_BYTES }).catch((err: unknown) => {
          throw err instanceof AppError && err.status === 400 ? badRequest(`${field}: ${err.message}`) : err
        }),
      )
    }
    return stored
  } catch (err) {
    await removeFiles(deps, stored)
    throw err
  }
}

/** Removes stored files after the transaction that would have referenced them failed. */
export async function removeFiles(deps: Pick<AppDeps, 'db' | 'files'>, stored: StoredFile[]): Promise<void> {
  if (stored.length) await deps.files.remove(deps.db, stored.map((f) => f.key))
}

/** Inserts attachment rows for files stored with a submission (inside its transaction). */
export function insertAttachmentRows(tx: DbOrTx, report: { id: string; projectId: string }, stored: StoredFile[], now: Date): void {
  if (stored.length === 0) return
  tx.insert(attachments)
    .values(stored.map((f) => ({ id: newId(), reportId: report.id, projectId: report.projectId, fileKey: f.key, fileName: f.fileName, fileSize: f.size, mimeType: f.mimeType, createdAt: now })))
    .run()
}
