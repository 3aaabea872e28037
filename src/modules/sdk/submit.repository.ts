import { and, count, eq, isNull, sql } from 'drizzle-orm'
import { type Db, rawSqlite } from '../../db/client'
import { attachments } from '../attachments/attachments.table'
import { type Category, type Priority, reports, type SENTIMENTS } from '../reports/reports.table'

type Sentiment = (typeof SENTIMENTS)[number]
import { similarOpenTitlesQuery } from './duplicates'
import { reportOccurrences } from './sdk.table'

const p = sql.placeholder


/** The report a submission with the same title is stacked onto. */
export interface LiveReportByTitle {
  id: string
  reportNumber: number
  category: Category
  priority: Priority
  sentimentScore: number | null
  sentimentLevel: Sentiment | null
}

/** Prepared statements of the submit hot path and the report lookups of the other SDK routes, compiled once per database. */
export function createSubmitRepository(db: Db) {
  // Raw SQL for a literal LIMIT: bun:sqlite runs a bound LIMIT (what Drizzle emits) ~4 µs slower,
  // and an ORDER BY (even one the index already satisfies) ~5 µs slower. The oldest such report
  // comes first anyway: (project_id, title_key) index entries are in seq order.
  const liveByTitleKey = rawSqlite(db).prepare<LiveReportByTitle, [string, string]>(
    `SELECT id, report_number AS reportNumber, category, priority, sentiment_score AS sentimentScore, sentiment_level AS sentimentLevel
     FROM reports INDEXED BY reports_project_title_key_idx
     WHERE project_id = ? AND title_key = ? AND deleted_at IS NULL LIMIT 1`,
  )

  const insertOccurrence = db
    .insert(reportOccurrences)
    .values({
      id: p('id'),
      reportId: p('reportId'),
      projectId: p('projectId'),
      deviceInfo: p('deviceInfo'),
      osInfo: p('osInfo'),
      platform: p('platform'),
      gameVersion: p('gameVersion'),
      playerId: p('playerId'),
      reporterName: p('reporterName'),
      // Bound as text (not through the JSON column's encoder, which would store SQL NULL as 'null').
      metadata: sql`${p('metadata')}`,
      screenshotKey: p('screenshotKey'),
      createdAt: p('createdAt'),
    })
    .prepare()

  const bumpOccurrences = db
    .update(reports)
    .set({ occurrenceCount: sql`${reports.occurrenceCount} + 1`, updatedAt: p('now') as never })
    .where(eq(reports.id, p('reportId')))
    .prepare()

  const attachmentCount = db
    .select({ n: count() })
    .from(attachments)
    .where(eq(attachments.reportId, p('reportId')))
    .prepare()

  const similarOpenTitles = similarOpenTitlesQuery(rawSqlite(db))

  const liveReportOfProject = db
    .select({ id: reports.id, projectId: reports.projectId })
    .from(reports)
    .where(and(eq(reports.id, p('id')), eq(reports.projectId, p('projectId')), isNull(reports.deletedAt)))
    .prepare()

  return { liveReportOfProject, liveByTitleKey, insertOccurrence, bumpOccurrences, attachmentCount, similarOpenTitles }
}

export type SubmitRepository = ReturnType<typeof createSubmitRepository>
