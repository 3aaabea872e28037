import type { AppDeps } from '../../app-deps'
import { AppError, badRequest, notFound } from '../../http/errors'
import type { Project } from '../projects/projects.repository'
import type { Account } from '../auth/accounts.repository'
import { addAttachment } from '../attachments/attachments.service'
import { base64Upload } from './base64-upload'
import type { Base64File } from './sdk-files'
import { MAX_BASE64_FILE_BYTES } from './sdk.schemas'
import { liveSdkReport } from './sdk-reports'

/**
 * Adds one base64 attachment to a report of the key's project (404 otherwise), through the team's
 * attachment rules: text, image, video or JSON, 10 MB, 10 per report, the plan's upload quota.
 */
export async function addSdkAttachment(deps: Pick<AppDeps, 'db' | 'clock' | 'files' | 'events'>, project: Project, account: Account, reportId: string, file: Base64File) {
  const report = await liveSdkReport(deps.db, project.id, reportId)
  if (!report) throw notFound('bug report not found')
  const { data, declaredType } = base64Upload(file.data, 'data', MAX_BASE64_FILE_BYTES)
  return addAttachment(deps, { project, account, report, data, fileName: file.filename, declaredType: file.mime_type ?? declaredType, actorId: null }).catch((err: unknown) => {
    throw err instanceof AppError && err.status === 400 && !/attachments/.test(err.message) ? badRequest(`data: ${err.message}`) : err
  })
}
