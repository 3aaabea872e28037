import type { Seam } from '../../db/client'
import { createAttachmentsRepository } from '../attachments/attachments.repository'
import { createDebugFilesRepository } from '../debug-files/debug-files.repository'
import { createIngestRepository } from '../ingest/ingest.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { createSdkRepository } from '../sdk/sdk.repository'

/** Keys of every stored file of a project: its reports' (deleted ones too) screenshots, attachments and replays, and its debug files. */
export async function projectFileKeys(db: Seam, projectId: string): Promise<string[]> {
  const { ids, screenshotKeys } = await createReportsRepository({ db }).idsAndScreenshotsOf(projectId)
  // Child rows are reached through the report ids (their report indexes), in chunks, not per report.
  const lists = await Promise.all([
    createIngestRepository({ db }).screenshotKeysOf(ids),
    createAttachmentsRepository({ db }).fileKeysOf(ids),
    createSdkRepository({ db }).replayKeysOf(ids),
    createDebugFilesRepository({ db }).fileKeysOf(projectId),
  ])
  return [...new Set([screenshotKeys, ...lists].flat())]
}
