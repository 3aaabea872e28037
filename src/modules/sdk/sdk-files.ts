import type { AppDeps } from '../../app-deps'
import { removeFiles, type StoredFile } from '../../files/storage'
import { INVALID_API_KEY } from '../../http/auth.plugin'
import { AppError, badRequest, unauthorized } from '../../http/errors'
import { sdkCallerOf } from '../../http/sdk-callers'
import type { PathPattern } from '../../http/json-stream/json-parser'
import { streamedJsonBody } from '../../http/json-stream/json-body'
import { base64Upload } from './base64-upload'
import { MAX_BASE64_FILE_BYTES, MAX_JSON_BESIDE_FILES } from './sdk.schemas'

export interface Base64File {
  filename: string
  mime_type?: string | null
  data: string
}

/**
 * Body hooks of a route taking base64 files in JSON: a big body streams in and its values at
 * `base64Paths` are decoded into temp files as they arrive (see `streamedJsonBody`).
 */
export function sdkUploadBody(deps: Pick<AppDeps, 'db' | 'files'>, base64Paths: readonly PathPattern[]) {
  return streamedJsonBody({
    base64Paths,
    maxFileBytes: MAX_BASE64_FILE_BYTES,
    // Text fields and metadata fit in a few hundred KB even \u-escaped; megabytes of other JSON only cost CPU.
    maxJsonBesideFiles: MAX_JSON_BESIDE_FILES,
    tempPath: () => deps.files.tempPath(),
    // The apiKey macro decides, after the body is parsed; a wrong key in the header is refused here
    // already, so that its body is never read and spilled to disk.
    async beforeRead(request) {
      const key = request.headers.get('x-api-key')
      if (key !== null && !(await sdkCallerOf(deps.db, key))) throw unauthorized(INVALID_API_KEY)
    },
  })
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
      const { data, declaredType } = base64Upload(file.data, field, MAX_BASE64_FILE_BYTES)
      stored.push(
        await deps.files.store(deps.db, { data, fileName: file.filename, declaredType: file.mime_type ?? declaredType, kind, maxBytes: MAX_BASE64_FILE_BYTES }).catch((err: unknown) => {
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
