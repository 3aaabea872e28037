import { sql } from 'drizzle-orm'
import { type Db, rawSqlite } from '../../db/client'
import { ADD_FACET_SQL } from '../reports/report-facets'
import type { Category, Priority, Status } from '../reports/reports.table'
import { similarOpenTitlesQuery } from './duplicates'
import { reportOccurrences } from './ingest.table'

const p = sql.placeholder

/** The report a submission joins, as the stacking path reads it. */
export interface GroupingTarget {
  seq: number
  id: string
  reportNumber: number
  status: Status
  category: Category
  priority: Priority
  sentimentScore: number | null
  sentimentLevel: 'positive' | 'neutral' | 'negative' | null
  versions: string
  resolvedInVersion: string | null
}

/** Prepared statements of the ingest path, compiled once per database. */
function prepare(db: Db) {
  const sqlite = rawSqlite(db)
  return {
    // Raw SQL for a literal LIMIT (bun:sqlite runs a bound LIMIT, as Drizzle writes it, ~4 µs slower).
    // The key's live reports oldest first; a closed or won't-fix one before the answer costs a row read.
    target: sqlite.prepare<GroupingTarget, [string, string]>(
      `SELECT seq, id, report_number AS reportNumber, status, category, priority, sentiment_score AS sentimentScore, sentiment_level AS sentimentLevel,
         versions, resolved_in_version AS resolvedInVersion
       FROM reports INDEXED BY reports_live_fingerprint_idx
       WHERE project_id = ? AND fingerprint = ? AND deleted_at IS NULL AND status IN ('open', 'in_progress', 'resolved') LIMIT 1`,
    ),
    /** An occurrence with its own copy of the evidence (a report's first one too: reports.service.ts). */
    occurrence: db
      .insert(reportOccurrences)
      .values({
        id: p('id'),
        reportId: p('reportId'),
        projectId: p('projectId'),
        title: p('title'),
        description: p('description'),
        stepsToReproduce: p('stepsToReproduce'),
        expectedBehavior: p('expectedBehavior'),
        actualBehavior: p('actualBehavior'),
        source: p('source'),
        errorType: p('errorType'),
        deviceInfo: p('deviceInfo'),
        osInfo: p('osInfo'),
        platform: p('platform'),
        gameVersion: p('gameVersion'),
        playerId: p('playerId'),
        reporterName: p('reporterName'),
        reporterEmail: p('reporterEmail'),
        // Bound as text (not through the JSON column's encoder, which would store SQL NULL as 'null').
        metadata: sql`${p('metadata')}`,
        screenshotKey: p('screenshotKey'),
        client: p('client'),
        eventId: p('eventId'),
        createdAt: p('now'),
      })
      .prepare(),
    /** Claims a client event id for the project: changes nothing (0 changes) when it was taken in before. */
    claimEventId: sqlite.prepare<unknown, [string, string, number]>('INSERT OR IGNORE INTO ingested_event_ids (project_id, event_id, created_at) VALUES (?, ?, ?)'),
    /** Counts a player among a report's players; changes nothing when they were already counted. */
    addPlayer: sqlite.prepare<unknown, [number, string]>('INSERT OR IGNORE INTO report_players (report_seq, player_id) VALUES (?, ?)'),
    /** A version, platform, player or screenshot the report's occurrences carry (report-facets.ts). */
    addFacet: sqlite.prepare<unknown, [string, number, string, number]>(ADD_FACET_SQL),
    /**
     * One more occurrence: its time, its version (a submission without one leaves the last known),
     * and whether it brought a new player. `updated_at` stays: it is the team's last change.
     */
    counted: sqlite.prepare<unknown, [number, number, string, string, number]>(
      `UPDATE reports SET occurrence_count = occurrence_count + 1, player_count = player_count + ?1, last_seen = ?2,
         last_version = CASE WHEN ?3 = '' THEN last_version ELSE ?3 END,
         first_version = CASE WHEN first_version = '' THEN ?3 ELSE first_version END,
         versions = ?4
       WHERE seq = ?5`,
    ),
    similarOpenTitles: similarOpenTitlesQuery(sqlite),
  }
}

export type IngestRepository = ReturnType<typeof prepare>

const cache = new WeakMap<Db, IngestRepository>()

/** The ingest statements of `db`, prepared once; they join the caller's open transaction. */
export function ingestRepository(db: Db): IngestRepository {
  let r = cache.get(db)
  if (!r) cache.set(db, (r = prepare(db)))
  return r
}
