import { WITHDRAWN_FILES_TABLE, withdrawnFilesBackfill, withdrawnFilesSql } from '../../files/withdrawn-files'
import { withdrawnFilesPgSql } from '../../files/withdrawn-files.pg'
import type { DomainModule } from '../module'
import { attachmentsRoutes } from './attachments.routes'

// Files of deleted reports are withdrawn from download at once (src/files/withdrawn-files.ts).
export const attachmentsModule: DomainModule = {
  name: 'attachments',
  routes: attachmentsRoutes,
  database: { sql: withdrawnFilesSql, backfills: [{ table: WITHDRAWN_FILES_TABLE, backfill: withdrawnFilesBackfill }], postgres: { sql: withdrawnFilesPgSql } },
}
