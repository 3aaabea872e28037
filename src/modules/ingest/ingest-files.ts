import type { Seam } from '../../db/client'
import type { StoredFile } from '../../files/storage'
import { newId } from '../../lib/ids'
import { createAttachmentsRepository } from '../attachments/attachments.repository'

/** Inserts the attachment rows of files stored with a submission, on its report and occurrence (inside its transaction). */
export async function insertAttachmentRows(db: Seam, to: { id: string; projectId: string; occurrenceId: string | null }, stored: StoredFile[], now: Date): Promise<void> {
  if (stored.length === 0) return
  const rows = stored.map((f) => ({ id: newId(), reportId: to.id, projectId: to.projectId, occurrenceId: to.occurrenceId, fileKey: f.key, fileName: f.fileName, fileSize: f.size, mimeType: f.mimeType, createdAt: now }))
  await createAttachmentsRepository({ db }).insertMany(rows)
}
