import type { DomainModule } from '../module'
import { sdkRowidPgSql } from './sdk.rowid.pg'
import { sdkRoutes } from './sdk.routes'

export const sdkModule: DomainModule = {
  name: 'sdk',
  routes: sdkRoutes,
  database: { postgres: { sql: sdkRowidPgSql } },
}
