import type { DomainModule } from '../module'
import { sdkRowidPgSql } from './sdk.rowid.pg'

export const sdkModule: DomainModule = {
  name: 'sdk',
  database: { postgres: { sql: sdkRowidPgSql } },
}
