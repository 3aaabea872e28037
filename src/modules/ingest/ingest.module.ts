import type { DomainModule } from '../module'
import { fingerprintsBackfill } from './ingest.backfill'
import { occurrencesRoutes } from './occurrences.routes'
import { OPEN_TITLE_TERMS_TABLE, openTitleTermsBackfill, openTitleTermsSql } from './open-title-terms'
import { openTitleTermsPgSql } from './open-title-terms.pg'
import { REPORT_PLAYERS_TABLE, reportPlayersBackfill, reportPlayersSql } from './report-players'
import { reportPlayersPgSql } from './report-players.pg'

/** The one ingest path (ingest.service.ts) has no route of its own: clients reach it through their adapters. These are the team's routes over its occurrences. */
export const ingestModule: DomainModule = {
  name: 'ingest',
  routes: occurrencesRoutes,
  database: {
    sql: [...openTitleTermsSql, ...reportPlayersSql],
    backfills: [
      { table: OPEN_TITLE_TERMS_TABLE, backfill: openTitleTermsBackfill },
      { table: REPORT_PLAYERS_TABLE, backfill: reportPlayersBackfill },
    ],
    afterMigration: [{ tag: '0019_drop_inbox_title_key', backfill: fingerprintsBackfill }],
    postgres: { sql: [...openTitleTermsPgSql, ...reportPlayersPgSql] },
  },
}
