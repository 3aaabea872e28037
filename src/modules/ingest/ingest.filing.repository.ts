import { sql } from 'drizzle-orm'
import { type Db, preparedPerConnection, type Query, type Seam } from '../../db/client'
import { together } from '../../db/together'
import { DUPLICATE_CANDIDATES, MAX_DUPLICATES } from './duplicates'
import { ingestedEventIds, occurrenceTags, reportOccurrences } from './ingest.table'
import type { NewOccurrence } from './ingest.repository'
import { reportPlayers } from './report-players'

const p = sql.placeholder

/** An occurrence with its own copy of the evidence (a report's first one too: reports.service.ts). */
const occurrenceInsert = (q: Db) =>
  q
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
      runtime: p('runtime'),
      runtimeVersion: p('runtimeVersion'),
      browser: p('browser'),
      browserVersion: p('browserVersion'),
      environment: p('environment'),
      gameVersion: p('gameVersion'),
      playerId: p('playerId'),
      reporterName: p('reporterName'),
      reporterEmail: p('reporterEmail'),
      // Bound as text (not through the JSON column's encoder, which would store SQL NULL as 'null').
      metadata: sql`${p('metadata')}`,
      screenshotKey: p('screenshotKey'),
      client: p('client'),
      eventId: p('eventId'),
      level: p('level'),
      handled: sql`${p('handled')}`,
      crash: sql`${p('crash')}`,
      createdAt: p('at'),
      receivedAt: p('now'),
    })
    .prepare()

/**
 * The ranking of `possible_duplicates` over `open_title_terms` for `n` words. Each word's branch reads
 * the newest open reports holding it (no ORDER BY: the primary key walk already yields the newest
 * first, and a satisfied ORDER BY still costs ~5 µs a call); SQLite then counts the words each
 * candidate shares and ranks by Jaccard share, newest first on ties, so only the numbers come back
 * (reading the ~150 candidate rows as objects cost more than the whole ranking).
 */
const similarTitles = (q: Query, n: number) => {
  const branch = (i: number) =>
    sql`SELECT * FROM (SELECT neg_seq, report_number, n_terms FROM open_title_terms WHERE project_id = ${p('projectId')} AND term = ${p(`t${i}`)} LIMIT ${sql.raw(String(DUPLICATE_CANDIDATES))}) AS ${sql.raw(`word${i}`)}`
  const candidates = sql.join(Array.from({ length: n }, (_, i) => branch(i)), sql` UNION ALL `)
  return q
    .select({ reportNumber: sql<number>`report_number` })
    // Named subqueries and every selected column grouped (one report per neg_seq): PostgreSQL asks for both.
    .from(sql`(${candidates}) AS candidates`)
    .groupBy(sql`neg_seq, report_number, n_terms`)
    .orderBy(sql`count(*) * 1.0 / (${p('wordCount')} + n_terms - count(*)) DESC`, sql`neg_seq`)
    .limit(MAX_DUPLICATES)
    .prepare()
}

/** The ingest path's statements, prepared once per connection: every submission runs them. */
function prepare(q: Query) {
  const bySize = new Map<number, ReturnType<typeof similarTitles>>()
  return {
    occurrence: occurrenceInsert(q),
    claimEventId: q
      .insert(ingestedEventIds)
      .values({ projectId: p('projectId'), eventId: p('eventId'), createdAt: p('now') })
      .onConflictDoNothing()
      .returning({ eventId: ingestedEventIds.eventId })
      .prepare(),
    addPlayer: q
      .insert(reportPlayers)
      .values({ reportSeq: p('seq'), playerId: p('playerId') })
      .onConflictDoNothing()
      .returning({ playerId: reportPlayers.playerId })
      .prepare(),
    similarTitles: (n: number) => {
      let st = bySize.get(n)
      if (!st) bySize.set(n, (st = similarTitles(q, n)))
      return st
    },
  }
}

const statementsOf = preparedPerConnection(prepare)

/**
 * The ingest repository's part on the submit path (ingest.repository.ts spreads it in): a client
 * event id claimed once, an occurrence with its tags and player, and the open reports whose titles
 * share the most words, each a statement prepared once per connection.
 */
export function ingestFilingRepository({ db }: { db: Seam }) {
  return {
    /** Claims a client event id for the project; false when the project took it in before (a retry). */
    claimEventId: (projectId: string, eventId: string, now: Date) =>
      db.write(async (q) => (await statementsOf(q).claimEventId.execute({ projectId, eventId, now })).length > 0),

    /** Adds an occurrence (and its tags) to report `seq` and counts its player among the report's players; true when the player is new to it. */
    addOccurrence: (o: NewOccurrence, seq: number) =>
      db.write(async (q) => {
        const st = statementsOf(q)
        const [, added] = await together([
          st.occurrence.execute(o),
          o.playerId ? st.addPlayer.execute({ seq, playerId: o.playerId }) : Promise.resolve([]),
          o.tags.length > 0 ? q.insert(occurrenceTags).values(o.tags.map(([key, value]) => ({ occurrenceId: o.id, key, value }))) : Promise.resolve(),
        ] as const)
        return added.length > 0
      }),

    /** Numbers of the open reports of a project sharing most of `terms` (the title has `wordCount` words in all), best first. */
    similarOpenTitles: async (projectId: string, terms: string[], wordCount: number): Promise<number[]> => {
      const params: Record<string, string | number> = { projectId, wordCount }
      terms.forEach((t, i) => (params[`t${i}`] = t))
      const rows = await db.read((q) => statementsOf(q).similarTitles(terms.length).execute(params))
      return rows.map((r) => r.reportNumber)
    },
  }
}
