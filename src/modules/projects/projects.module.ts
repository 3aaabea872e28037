import type { DomainModule } from '../module'
import { backfillProjectDsnIds, PROJECT_DSN_IDS_TABLE, projectDsnSql } from './projects.repository'
import { projectDsnPgSql } from './project-dsn.pg'
import { projectsRoutes } from './projects.routes'

export const projectsModule: DomainModule = {
  name: 'projects',
  routes: projectsRoutes,
  database: { sql: projectDsnSql, backfills: [{ table: PROJECT_DSN_IDS_TABLE, run: backfillProjectDsnIds }], postgres: { sql: projectDsnPgSql } },
}
