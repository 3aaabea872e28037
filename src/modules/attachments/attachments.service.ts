import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { badRequest } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordActivity } from '../activity/activity.service'
import { chargeUpload } from '../auth/quota'
import { type Attachment, createAttachmentsRepository } from './attachments.repository'

export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
export const MAX_ATTACHMENTS_PER_REPORT = 10

type Deps = Pick<AppDeps, 'db' | 'clock' | 'files'>

export interface NewAttachment {
  project: { id: string }
  account: { id: string }
  report: { id: string }
  data: Blob | Uint8Array
  fileName: string
  /** The type the client declared; it must agree with the sniffed content. */
  declaredType?: string | null
  /** The team member who uploaded it; null for SDK uploads. */
  actorId?: string | null
}

/** An attachment as the API shows it. */
export const serializeAttachment = (files: Deps['files'], a: Attachment) => ({
  id: a.id,
  file_name: a.fileName,
  file_url: files.url(a.fileKey),
  file_size: a.fileSize,
  mime_type: a.mimeType,
  created_at: a.createdAt.toISOString(),
})

async function assertRoomOnReport(db: Seam, reportId: string) {
  if ((await createAttachmentsRepository({ db }).countOf(reportId)) >= MAX_ATTACHMENTS_PER_REPORT) throw badRequest(`a report can have at most ${MAX_ATTACHMENTS_PER_REPORT} attachments`)
}

/** Thrown to roll back the trial charge of `assertUploadQuota`. */
const trialCharge = Symbol('trial charge')

// Runs the real quota charge and rolls it back, so the 403 comes before any bytes are written
// and says exactly what the charge after storing would say.
async function assertUploadQuota(db: Deps['db'], accountId: string, bytes: number) {
  try {
    await db.write(async (tx) => {
      await chargeUpload(tx, accountId, bytes)
      throw trialCharge
    })
  } catch (e) {
    if (e !== trialCharge) throw e
  }
}

/**
 * Stores a file (text, image, video or JSON, max 10 MB, checked by content) as an attachment of a
 * report: at most 10 per report, charged to the account's upload quota (403 when it is used up).
 * Shared by the team's multipart upload and the SDK's base64 upload.
 */
export async function addAttachment(deps: Deps, input: NewAttachment) {
  await assertRoomOnReport(deps.db, input.report.id)
  const size = input.data instanceof Blob ? input.data.size : input.data.byteLength
  if (size > 0 && size <= MAX_ATTACHMENT_BYTES) await assertUploadQuota(deps.db, input.account.id, size)
  const stored = await deps.files.store(deps.db, {
    data: input.data,
    fileName: input.fileName,
    declaredType: input.declaredType,
    kind: 'attachment',
    maxBytes: MAX_ATTACHMENT_BYTES,
  })
  const now = deps.clock.now()
  const row: Attachment = {
    id: newId(),
    reportId: input.report.id,
    projectId: input.project.id,
    occurrenceId: null,
    fileKey: stored.key,
    fileName: stored.fileName,
    fileSize: stored.size,
    mimeType: stored.mimeType,
    createdAt: now,
  }
  try {
    await deps.db.write(async (tx) => {
      // The charge first: it updates the account's row, so on PostgreSQL a concurrent upload of the same
      // account waits here for this write's commit, and the count below (checked again: another upload
      // may have finished while this one was stored) sees its row. SQLite has one writer at a time.
      await chargeUpload(tx, input.account.id, stored.size)
      await assertRoomOnReport(deps.db, input.report.id)
      await createAttachmentsRepository({ db: deps.db }).insert(row)
      await recordActivity(tx, now, [{ projectId: input.project.id, reportId: input.report.id, actorId: input.actorId ?? null, action: 'attached', field: 'attachments', newValue: stored.fileName }])
    })
  } catch (e) {
    await deps.files.remove(deps.db, [stored.key])
    throw e
  }
  return serializeAttachment(deps.files, row)
}

/** A report's attachments, oldest first. */
export async function listAttachments(deps: Pick<AppDeps, 'db' | 'files'>, reportId: string) {
  return (await createAttachmentsRepository({ db: deps.db }).ofReport(reportId)).map((a) => serializeAttachment(deps.files, a))
}
