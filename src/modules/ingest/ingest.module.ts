import type { DomainModule } from '../module'
import { backfillFingerprints } from './ingest.backfill'
import { occurrencesRoutes } from './occurrences.routes'
import { backfillOpenTitleTerms, OPEN_TITLE_TERMS_TABLE, openTitleTermsSql } from './open-title-terms'
import { openTitleTermsPgSql } from './open-title-terms.pg'
import { backfillReportPlayers, REPORT_PLAYERS_TABLE, reportPlayersSql } from './report-players'
import { reportPlayersPgSql } from './report-players.pg'

/** The one ingest path (ingest.service.ts) has no route of its own: clients reach it through their adapters. These are the team's routes over its occurrences. */
export const ingestModule: DomainModule = {
  name: 'ingest',
  routes: occurrencesRoutes,
  database: {
    sql: [...openTitleTermsSql, ...reportPlayersSql],
    backfills: [
      { table: OPEN_TITLE_TERMS_TABLE, run: backfillOpenTitleTerms },
      { table: REPORT_PLAYERS_TABLE, run: backfillReportPlayers },
    ],
    afterMigration: [{ tag: '0019_drop_inbox_title_key', run: backfillFingerprints }],
    postgres: { sql: [...openTitleTermsPgSql, ...reportPlayersPgSql] },
  },
}
