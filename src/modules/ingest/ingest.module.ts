import type { DomainModule } from '../module'
import { addToReports } from '../reports/report-additions'
import { groupingOfReport } from './fingerprint'
import { fingerprintsBackfill } from './ingest.backfill'
import { ingestRepositoryOf } from './ingest.repository'
import { OPEN_TITLE_TERMS_TABLE, openTitleTermsBackfill, openTitleTermsSql } from './open-title-terms'
import { openTitleTermsPgSql } from './open-title-terms.pg'
import { REPORT_PLAYERS_TABLE, reportPlayersBackfill, reportPlayersSql } from './report-players'
import { reportPlayersPgSql } from './report-players.pg'

// Ingest's part of reports (a filed report's grouping and first occurrence): reports reads it from here, never imports it.
addToReports({ groupingOfReport, addOccurrence: (tx, occurrence, seq) => ingestRepositoryOf(tx).addOccurrence(occurrence, seq) })

/** The one ingest path (ingest.service.ts) has no route of its own: clients reach it through their adapters (the team's routes over occurrences are report-admin's). */
export const ingestModule: DomainModule = {
  name: 'ingest',
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
