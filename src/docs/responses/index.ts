import { analyticsDocs } from './analytics'
import { attachmentsDocs } from './attachments'
import { authDocs } from './auth'
import { billingDocs } from './billing'
import { changelogDocs } from './changelog'
import { chatChannelsDocs } from './chat-channels'
import { commentsDocs } from './comments'
import { discordDocs } from './discord'
import { debugFilesDocs } from './debug-files'
import type { OperationDocs } from './common'
import { gitDocs } from './git'
import { integrationsDocs } from './integrations'
import { labelsDocs } from './labels'
import { notificationsDocs } from './notifications'
import { permissionsDocs } from './permissions'
import { playersDocs } from './players'
import { projectsDocs } from './projects'
import { publicDocs } from './public'
import { reportsDocs } from './reports'
import { sdkDocs } from './sdk'
import { sentryDocs } from './sentry'
import { settingsDocs } from './settings'
import { steamDocs } from './steam'
import { teamDocs } from './team'
import { webhooksDocs } from './webhooks'
import { workflowDocs } from './workflow'

export * from './analytics'
export * from './attachments'
export * from './auth'
export * from './billing'
export * from './changelog'
export * from './chat-channels'
export * from './comments'
export * from './discord'
export * from './debug-files'
export * from './common'
export * from './git'
export * from './integrations'
export * from './labels'
export * from './notifications'
export * from './permissions'
export * from './players'
export * from './projects'
export * from './public'
export * from './reports'
export * from './sdk'
export * from './sentry'
export * from './settings'
export * from './steam'
export * from './team'
export * from './webhooks'
export * from './workflow'

/** Response documentation of every operation, keyed `METHOD /api/path/{param}` as in the OpenAPI document. */
export const operationDocs: OperationDocs = {
  ...publicDocs,
  ...authDocs,
  ...projectsDocs,
  ...reportsDocs,
  ...workflowDocs,
  ...commentsDocs,
  ...labelsDocs,
  ...attachmentsDocs,
  ...sdkDocs,
  ...sentryDocs,
  ...debugFilesDocs,
  ...settingsDocs,
  ...changelogDocs,
  ...webhooksDocs,
  ...integrationsDocs,
  ...notificationsDocs,
  ...teamDocs,
  ...permissionsDocs,
  ...billingDocs,
  ...steamDocs,
  ...discordDocs,
  ...chatChannelsDocs,
  ...gitDocs,
  ...analyticsDocs,
  ...playersDocs,
}
