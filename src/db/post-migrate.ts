import { reportCountsSql } from '../modules/reports/reports.counts'
import { reportsFtsSql } from '../modules/reports/reports.fts'
import { openTitlesBackfillSql, openTitlesFtsSql, OPEN_TITLES_TABLE } from '../modules/sdk/open-titles.fts'

/**
 * Idempotent SQL that drizzle-kit cannot express (FTS5 virtual tables and their triggers),
 * declared by each domain beside its tables and applied after every migration run.
 */
export const postMigrationSql: string[] = [...reportsFtsSql, ...reportCountsSql, ...openTitlesFtsSql]

/** SQL run once, right after `postMigrationSql` first creates `table`: fills an index added to a database that already had rows. */
export const postMigrationBackfills: { table: string; sql: string }[] = [{ table: OPEN_TITLES_TABLE, sql: openTitlesBackfillSql }]
