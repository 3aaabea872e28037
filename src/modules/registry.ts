import { accountDataModule } from './account-data/account-data.module'
import { analyticsModule } from './analytics/analytics.module'
import { attachmentsModule } from './attachments/attachments.module'
import { authModule } from './auth/auth.module'
import { billingModule } from './billing/billing.module'
import { changelogModule } from './changelog/changelog.module'
import { chatChannelsModule } from './chat-channels/chat-channels.module'
import { commentsModule } from './comments/comments.module'
import { discordModule } from './discord/discord.module'
import { debugFilesModule } from './debug-files/debug-files.module'
import { gitModule } from './git/git.module'
import { ingestModule } from './ingest/ingest.module'
import { integrationsModule } from './integrations/integrations.module'
import { labelsModule } from './labels/labels.module'
import { maintenanceModule } from './maintenance/maintenance.module'
import type { DomainModule } from './module'
import { notificationsModule } from './notifications/notifications.module'
import { permissionsModule } from './permissions/permissions.module'
import { projectAdminModule } from './project-admin/project-admin.module'
import { projectsModule } from './projects/projects.module'
import { publicModule } from './public/public.module'
import { reportAdminModule } from './report-admin/report-admin.module'
import { reportsModule } from './reports/reports.module'
import { retentionModule } from './retention/retention.module'
import { sdkApiModule } from './sdk-api/sdk-api.module'
import { sdkModule } from './sdk/sdk.module'
import { steamModule } from './steam/steam.module'
import { sentryModule } from './sentry/sentry.module'
import { settingsModule } from './settings/settings.module'
import { teamModule } from './team/team.module'
import { webhooksModule } from './webhooks/webhooks.module'
import { workflowModule } from './workflow/workflow.module'

import type { DatabaseParts } from '../db/post-migrate'

export type { DomainModule }

/** Every domain module, in mounting order. A new domain adds one line here. */
export const modules: DomainModule[] = [
  maintenanceModule,
  authModule,
  accountDataModule,
  projectsModule,
  projectAdminModule,
  reportsModule,
  reportAdminModule,
  workflowModule,
  commentsModule,
  labelsModule,
  attachmentsModule,
  sdkModule,
  sdkApiModule,
  ingestModule,
  sentryModule,
  debugFilesModule,
  publicModule,
  settingsModule,
  changelogModule,
  webhooksModule,
  integrationsModule,
  notificationsModule,
  teamModule,
  permissionsModule,
  billingModule,
  retentionModule,
  analyticsModule,
  steamModule,
  chatChannelsModule,
  discordModule,
  gitModule,
]

/** The SQL and backfills every module adds beside its tables, for migrate() (src/db/migrate.ts). */
export const databaseParts: DatabaseParts[] = modules.flatMap((m) => (m.database ? [m.database] : []))
