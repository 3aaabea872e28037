import { reportCountsSql } from '../modules/reports/reports.counts'
import { reportsFtsSql } from '../modules/reports/reports.fts'

/**
 * Idempotent SQL that drizzle-kit cannot express (FTS5 virtual tables and their triggers),
 * declared by each domain beside its tables and applied after every migration run.
 */
export const postMigrationSql: string[] = [...reportsFtsSql, ...reportCountsSql]
