import type { Database } from 'bun:sqlite'
import { reportCountsSql } from '../modules/reports/reports.counts'
import { analyticsTriggersSql } from '../modules/analytics/analytics.triggers'
import { publicTrackerIndexSql } from '../modules/public/public.indexes'
import { backfillPublication, PUBLICATION_MIGRATION } from '../modules/public/publication.backfill'
import { reportsFtsSql } from '../modules/reports/reports.fts'
import { backfillOpenTitleTerms, openTitleTermsSql, OPEN_TITLE_TERMS_TABLE } from '../modules/ingest/open-title-terms'
import { backfillFingerprints } from '../modules/ingest/ingest.backfill'
import { backfillReportPlayers, REPORT_PLAYERS_TABLE, reportPlayersSql } from '../modules/ingest/report-players'
import { backfillReportFacets, REPORT_FACETS_TABLE, reportFacetsSql } from '../modules/reports/report-facets'
import { backfillReportDaily, REPORT_DAILY_TABLE, reportDailySql } from '../modules/analytics/report-daily'
import { backfillProjectDsnIds, PROJECT_DSN_IDS_TABLE, projectDsnSql } from '../modules/projects/project-dsn'
import { backfillWithdrawnFiles, withdrawnFilesSql, WITHDRAWN_FILES_TABLE } from '../files/withdrawn-files'
import { backfillCrashGroupVersionPlayers, CRASH_GROUP_VERSION_PLAYERS_TABLE, crashGroupVersionPlayersSql } from '../modules/analytics/crash-group-players'

/**
 * Idempotent SQL that drizzle-kit cannot express (FTS5 virtual tables, WITHOUT ROWID tables, triggers),
 * declared by each domain beside its tables and applied after every migration run.
 */
export const postMigrationSql: string[] = [
  ...reportsFtsSql,
  ...reportCountsSql,
  ...openTitleTermsSql,
  ...withdrawnFilesSql,
  ...publicTrackerIndexSql,
  ...analyticsTriggersSql,
  ...reportPlayersSql,
  ...projectDsnSql,
  ...crashGroupVersionPlayersSql,
  ...reportFacetsSql,
  ...reportDailySql,
]

/** Run once, right after `postMigrationSql` first creates `table`: fills an index added to a database that already had rows. */
export const postMigrationBackfills: { table: string; run: (sqlite: Database) => void }[] = [
  { table: OPEN_TITLE_TERMS_TABLE, run: backfillOpenTitleTerms },
  { table: WITHDRAWN_FILES_TABLE, run: backfillWithdrawnFiles },
  { table: REPORT_PLAYERS_TABLE, run: backfillReportPlayers },
  { table: PROJECT_DSN_IDS_TABLE, run: backfillProjectDsnIds },
  { table: CRASH_GROUP_VERSION_PLAYERS_TABLE, run: backfillCrashGroupVersionPlayers },
  { table: REPORT_FACETS_TABLE, run: backfillReportFacets },
  { table: REPORT_DAILY_TABLE, run: backfillReportDaily },
]

/** Run once, after the migration `tag` is applied and the SQL above: data only the app can compute. */
export const migrationBackfills: { tag: string; run: (sqlite: Database) => void }[] = [
  { tag: '0019_drop_inbox_title_key', run: backfillFingerprints },
  { tag: PUBLICATION_MIGRATION, run: backfillPublication },
]
