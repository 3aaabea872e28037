import type { DomainModule } from '../module'
import { REPORT_FACETS_TABLE, reportFacetsBackfill, reportFacetsSql } from './report-facets'
import { reportFacetSetsPgSql, reportFacetsPgSql } from './report-facets.pg'
import { reportCountsSql } from './reports.counts'
import { deletedReportsPgSql, reportCountsPgSql } from './reports.counts.pg'
import { reportSortKeysPgSql } from './reports.sort-keys.pg'
import { reportsJobs } from './reports.fts-merge'
import { reportsFtsSql } from './reports.fts'
import { POSTGRES_SEARCH_DOCUMENT_SQL, POSTGRES_SEARCH_FUNCTIONS_SQL } from './search-tsquery'

export const reportsModule: DomainModule = {
  name: 'reports',
  jobs: reportsJobs,
  database: {
    sql: [...reportsFtsSql, ...reportCountsSql, ...reportFacetsSql],
    backfills: [{ table: REPORT_FACETS_TABLE, backfill: reportFacetsBackfill }],
    postgres: { sql: [...POSTGRES_SEARCH_FUNCTIONS_SQL, ...POSTGRES_SEARCH_DOCUMENT_SQL, ...reportCountsPgSql, ...reportFacetsPgSql, ...reportFacetSetsPgSql, ...deletedReportsPgSql, ...reportSortKeysPgSql] },
  },
}
