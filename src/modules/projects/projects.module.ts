import type { DomainModule } from '../module'
import { PROJECT_DSN_IDS_TABLE, projectDsnIdsBackfill, projectDsnSql } from './projects.repository'
import { projectDsnPgSql } from './project-dsn.pg'

export const projectsModule: DomainModule = {
  name: 'projects',
  database: { sql: projectDsnSql, backfills: [{ table: PROJECT_DSN_IDS_TABLE, backfill: projectDsnIdsBackfill }], postgres: { sql: projectDsnPgSql } },
}
