import type { AppDeps } from '../../app-deps'
import type { StoredFile } from '../../files/storage'
import { AppError } from '../../http/errors'

/** Largest file kept from a Sentry upload (an attachment, a minidump, an Unreal log): the decoded body is 100 MB at most. */
export const MAX_CRASH_FILE_BYTES = 50 * 1024 * 1024

export interface IncomingFile {
  fileName: string
  bytes: Uint8Array
  contentType?: string | null
}

/**
 * Stores the files a crash reporter sent beside its event (attachments, minidumps, view
 * hierarchies, logs, and any other file, kept as bytes and served as a download). An empty file,
 * one past the size cap or one whose content contradicts its declared type is left out, never
 * failing the event; the others are stored before the event is ingested, which removes them again
 * if filing fails. When storing fails (a full disk), the files
 * already stored by this call are removed before the error goes on.
 */
export async function storeCrashFiles(deps: Pick<AppDeps, 'db' | 'files'>, incoming: IncomingFile[], kind: 'image' | 'crash' = 'crash'): Promise<StoredFile[]> {
  const stored: StoredFile[] = []
  for (const f of incoming) {
    if (f.bytes.byteLength === 0 || f.bytes.byteLength > MAX_CRASH_FILE_BYTES) continue
    try {
      stored.push(await deps.files.store(deps.db, { data: f.bytes, fileName: safeName(f.fileName), declaredType: f.contentType, kind, maxBytes: MAX_CRASH_FILE_BYTES }))
    } catch (err) {
      // A type not kept or a declared type that does not match: that file is dropped, the event is not.
      if (err instanceof AppError && err.status === 400) continue
      // Anything else (a full disk) fails the event: the files stored before it must not stay behind.
      await deps.files.remove(deps.db, stored.map((s) => s.key))
      throw err
    }
  }
  return stored
}

/** A file name as shown for download: its base name, printable, at most 200 characters. */
function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop()?.replace(/[\u0000-\u001f\u007f]/g, '').trim() ?? ''
  return (base || 'attachment').slice(0, 200)
}
