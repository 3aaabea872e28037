import type { Query } from '../../db/client'
import { createReportDailyRepository } from '../analytics/report-daily.repository'
import { createReportFacetsRepository } from '../reports/report-facets.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { createIngestRepository } from './ingest.repository'

/**
 * Counts a report's occurrences again from its rows, after split or merge moved some: how many, its
 * distinct players (report_players rebuilt), first and last seen, first and last known version, and
 * its versions most recently seen first; with them the list's facets it gained and its occurrences per
 * day. Submissions keep these incrementally (ingest.service.ts, the analytics rollup). Inside `tx`'s write.
 */
export async function recountReport(tx: Query, report: { id: string; seq: number; projectId: string }): Promise<void> {
  await createReportFacetsRepository({ db: tx }).addOfOccurrences(report)
  await createReportDailyRepository({ db: tx }).recount(report)
  const ingest = createIngestRepository({ db: tx })
  await ingest.recountPlayers(report)
  await createReportsRepository({ db: tx }).setOccurrenceCounts(report.seq, await ingest.summary(report))
}
