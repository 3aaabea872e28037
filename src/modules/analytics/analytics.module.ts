import type { DomainModule } from '../module'
import { addToReports } from '../reports/report-additions'
import { analyticsJobs } from './analytics.jobs'
import { analyticsTriggersSql } from './analytics.triggers'
import { analyticsTriggersPgSql } from './analytics.triggers.pg'
import { CRASH_GROUP_VERSION_PLAYERS_TABLE, crashGroupVersionPlayersBackfill, crashGroupVersionPlayersSql } from './crash-group-players'
import { crashGroupVersionPlayersPgSql } from './crash-group-players.pg'
import { REPORT_DAILY_TABLE, reportDailyBackfill, reportDailySql } from './report-daily'
import { reportDailyPgSql } from './report-daily.pg'
import { analyticsRoutes } from './analytics.routes'
import { createReportDailyRepository } from './report-daily.repository'
import { playersRoutes } from './players.routes'
import { telemetryRoutes } from './telemetry.routes'

/** Spec 4.11 analytics, read from rollups kept by triggers and a per-minute cursor job. */
// Analytics' part of reports (a list page's sparklines): reports reads it from here, never imports it.
addToReports({ sparklines: (db, rows, now, days) => createReportDailyRepository({ db }).sparklines(rows, now, days) })

export const analyticsModule: DomainModule = {
  name: 'analytics',
  routes: (deps) => analyticsRoutes(deps).use(playersRoutes(deps)).use(telemetryRoutes(deps)),
  jobs: analyticsJobs,
  database: {
    sql: [...analyticsTriggersSql, ...crashGroupVersionPlayersSql, ...reportDailySql],
    backfills: [
      { table: CRASH_GROUP_VERSION_PLAYERS_TABLE, backfill: crashGroupVersionPlayersBackfill },
      { table: REPORT_DAILY_TABLE, backfill: reportDailyBackfill },
    ],
    postgres: { sql: [...analyticsTriggersPgSql, ...crashGroupVersionPlayersPgSql, ...reportDailyPgSql] },
  },
}
