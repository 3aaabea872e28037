import { and, count, desc, eq, gt, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm'
import { indexedBy, lockedForWrite, onPostgres, type Query, type Seam } from '../../db/client'
import { translateSearch } from '../reports/fts-query'
import { SEARCH_DOCUMENT_SQL, translateSearchToTsquery } from '../reports/search-tsquery'
import { reportLabels } from '../labels/labels.table'
import { reports } from '../reports/reports.table'
import type { Category, Status } from '../reports/reports.types'
import type { RoadmapSettings } from '../settings/settings.schemas'
import { PUBLIC_TRACKER_INDEX, PUBLISHED_INDEX } from './public.indexes'
import { replyMailOptOuts, reportVotes, serverSecrets } from './public.table'
import type { PublishRules } from '../reports/report-publication'

/** The SQL condition of `PublishRules` alone, over a report row (no project, deletion or privacy terms). */
function byRules(s: PublishRules): SQL {
  const terms: SQL[] = [isNull(reports.published)]
  // A literal: the partial index of published reports (public.indexes.ts) serves only `published = 1` spelled so.
  if (s.publish === 'manual') return sql`${reports.published} = 1`
  if (s.publish === 'triaged') terms.push(isNotNull(reports.triagedAt))
  if (!s.include_auto_filed) terms.push(eq(reports.autoFiled, false))
  return or(eq(reports.published, true), and(...terms))!
}

/**
 * Live reports of a project a player may see under `rules`.
 * `is_private = 0` is a literal (not a bound false): the public tracker's partial index (public.indexes.ts) needs it.
 */
export const publicReportsOf = (projectId: string, rules: PublishRules): SQL =>
  and(eq(reports.projectId, projectId), isNull(reports.deletedAt), sql`${reports.isPrivate} = 0`, byRules(rules))!

// Spelled out with table names: inside the subquery an unqualified "id" would mean the comment's.
const publicCommentCount = sql<number>`(select count(*) from "comments" where "comments"."report_id" = "reports"."id" and "comments"."is_internal" = 0)`

const publicColumns = {
  reportNumber: reports.reportNumber,
  title: reports.title,
  description: reports.description,
  category: reports.category,
  status: reports.status,
  priority: reports.priority,
  upvotes: reports.upvotes,
  createdAt: reports.createdAt,
  updatedAt: reports.updatedAt,
  commentCount: publicCommentCount,
}

/** A report as the public pages show it, before the tracker's settings pick its fields. */
export interface PublicRow {
  reportNumber: number
  title: string
  description: string
  category: string
  status: string
  priority: string
  upvotes: number
  createdAt: Date
  updatedAt: Date
  commentCount: number
}

/** One page of the tracker: what it filters on (players' filters already narrowed to what the settings allow). */
export interface TrackerPageQuery {
  projectId: string
  rules: PublishRules
  status?: Status
  category?: Category
  /** The search box's text (the team list's query language), when the tracker allows search and one was given. */
  search: string | null
  page: number
  pageSize: number
  countCap: number
}

/**
 * Reports on the roadmap of a project, in its shown statuses. Source `published`: every report the
 * public tracker's rules (`tracker`) publish. Source `curated`: live, not private, not unpublished,
 * and put there by the team (the `on_roadmap` flag, or the label the roadmap settings name); being
 * put on the roadmap is itself a publication, so the tracker's `publish` mode and auto-filed rule do not apply.
 */
export function onRoadmap(projectId: string, settings: Pick<RoadmapSettings, 'statuses' | 'label_id' | 'source'>, tracker: PublishRules): SQL {
  if (settings.source === 'published') return and(publicReportsOf(projectId, tracker), inArray(reports.status, settings.statuses))!
  const chosen = settings.label_id
    ? inArray(reports.seq, sql`(select ${reportLabels.reportSeq} from ${reportLabels} where ${reportLabels.labelId} = ${settings.label_id})`)
    : // A literal, so the partial reports_roadmap_idx serves it.
      sql`${reports.onRoadmap} = 1`
  // `is_private` and `published` are columns of reports_roadmap_idx: a column is read from the index alone.
  return and(eq(reports.projectId, projectId), isNull(reports.deletedAt), sql`${reports.isPrivate} = 0`, sql`coalesce(${reports.published}, 1) = 1`, inArray(reports.status, settings.statuses), chosen)!
}

/** Which report a caller means: by number within the project, or by id. */
export type ReportRef = { number: number } | { id: string }
const refOf = (which: ReportRef): SQL => ('id' in which ? eq(reports.id, which.id) : eq(reports.reportNumber, which.number))

// Named, since the planner otherwise takes the team's upvotes index for the order and reads every
// row from the table to check `is_private`; these answer from the index. `manual` reads the small
// index of published reports.
const publicIndex = (q: Query, s: PublishRules) => indexedBy(q, reports, s.publish === 'manual' ? PUBLISHED_INDEX : PUBLIC_TRACKER_INDEX)

/**
 * The search's conditions on a report, in the engine's form: SQLite's FTS5 match set (by rowid), or
 * PostgreSQL's tsvector test on the row (search-tsquery.ts). `positive`: whether a word must match
 * (else only `-words` were given); null when the text has no usable term.
 */
function searchConditions(q: Query, text: string): { conds: SQL[]; positive: boolean } | null {
  if (onPostgres(q)) {
    const ts = translateSearchToTsquery(text)
    const doc = sql.raw(SEARCH_DOCUMENT_SQL)
    if (ts.match) return { conds: [sql`${doc} @@ to_tsquery('simple', ${ts.match})`], positive: true }
    return ts.excludeOnly ? { conds: [sql`NOT ${doc} @@ to_tsquery('simple', ${ts.excludeOnly})`], positive: false } : null
  }
  const fts = translateSearch(text)
  if (fts.match) return { conds: [sql`${reports.seq} in (select rowid from reports_fts where reports_fts match ${fts.match})`], positive: true }
  return fts.excludeOnly ? { conds: [sql`${reports.seq} not in (select rowid from reports_fts where reports_fts match ${fts.excludeOnly})`], positive: false } : null
}

/**
 * Every read and write of the public pages' tables (votes, server secrets, reply-mail opt-outs), and
 * the public pages' reads of reports (what the publish rules let players see), over the database seam.
 */
export function createPublicRepository({ db }: { db: Seam }) {
  return {
    /** The server secret `name`, made now (with `make`) when it does not exist yet. */
    secret: async (name: string, make: () => string, now: Date): Promise<string> => {
      const byName = eq(serverSecrets.name, name)
      const [found] = await db.read((q) => q.select({ value: serverSecrets.value }).from(serverSecrets).where(byName).limit(1))
      if (found) return found.value
      return db.write(async (q) => {
        await q.insert(serverSecrets).values({ name, value: make(), createdAt: now }).onConflictDoNothing()
        const [kept] = await q.select({ value: serverSecrets.value }).from(serverSecrets).where(byName).limit(1)
        return kept!.value
      })
    },

    /**
     * One page of the public tracker, most upvoted first, then newest (filing order), and the number of
     * matches counted up to `countCap + 1`.
     */
    trackerPage: async (t: TrackerPageQuery): Promise<{ rows: PublicRow[]; counted: number }> => {
      const conds: SQL[] = [publicReportsOf(t.projectId, t.rules)]
      if (t.status) conds.push(eq(reports.status, t.status))
      if (t.category) conds.push(eq(reports.category, t.category))
      // The page's rows are picked first on indexed columns alone (reports_public_idx gives the
      // order), then read in full: selecting every column, the comment count included, for each candidate
      // before the sort cost ~300 ms at 100,000 reports. Ties go to the newest: seq follows filing order.
      // A search is driven by its set of matches instead (through the rowid), which the index cannot give.
      return db.read(async (q) => {
        const search = t.search ? searchConditions(q, t.search) : null
        const where = and(...conds, ...(search?.conds ?? []))
        const source = search?.positive ? reports : publicIndex(q, t.rules)
        const pageSeqs = q
          .select({ seq: sql<number>`${reports.seq}` })
          .from(source)
          .where(where)
          .orderBy(desc(reports.upvotes), desc(reports.seq))
          .limit(t.pageSize)
          .offset((t.page - 1) * t.pageSize)
        const rows = await q.select(publicColumns).from(reports).where(inArray(reports.seq, pageSeqs)).orderBy(desc(reports.upvotes), desc(reports.seq))
        // Counted up to the cap + 1 rows, as the team list does: an exact COUNT read every public report
        // of the project (~100 ms at 100,000).
        const matching = q.select({ one: sql`1` }).from(source).where(where).limit(t.countCap + 1).as('matching')
        const [counted] = await q.select({ n: count() }).from(matching)
        return { rows, counted: counted!.n }
      })
    },

    /** The report `which` among those `shown` selects, as the public pages show it (with its id), or undefined. */
    publicReport: async (shown: SQL, which: ReportRef) =>
      (await db.read((q) => q.select({ ...publicColumns, id: reports.id }).from(reports).where(and(shown, refOf(which))).limit(1)))[0],

    /** Whether the public tracker's rules show the report `which` names. */
    isShown: async (projectId: string, rules: PublishRules, which: ReportRef): Promise<boolean> =>
      (await db.read((q) => q.select({ seq: reports.seq }).from(reports).where(and(publicReportsOf(projectId, rules), refOf(which))).limit(1))).length > 0,

    /**
     * One roadmap page: for each status in `where`, its reports ranked by upvotes (then newest), those
     * ranked in (first, first + size] for `status` and in (0, size] for the others; most upvoted first.
     */
    roadmapRows: (where: SQL, status: Status | undefined, first: number, size: number) =>
      db.read((q) => {
        // Each column's page is picked on indexed columns alone (rank within each status), then read in full.
        const ranked = q
          .select({
            seq: reports.seq,
            status: reports.status,
            rank: sql<number>`row_number() over (partition by ${reports.status} order by ${reports.upvotes} desc, ${reports.seq} desc)`.as('rank'),
          })
          .from(reports)
          .where(where)
          .as('ranked')
        const window = sql`${ranked.rank} > (case when ${ranked.status} = ${status ?? ''} then ${first} else 0 end)
    and ${ranked.rank} <= (case when ${ranked.status} = ${status ?? ''} then ${first + size} else ${size} end)`
        return q
          .select({ seq: reports.seq, reportNumber: reports.reportNumber, title: reports.title, category: reports.category, status: reports.status, upvotes: reports.upvotes, updatedAt: reports.updatedAt })
          .from(reports)
          .where(inArray(reports.seq, q.select({ seq: ranked.seq }).from(ranked).where(window)))
          .orderBy(desc(reports.upvotes), desc(reports.seq))
      }),

    /** Of the reports `seqs`, those `shown` lets through. */
    shownSeqs: async (shown: SQL, seqs: number[]): Promise<Set<number>> => {
      if (seqs.length === 0) return new Set()
      const rows = await db.read((q) => q.select({ seq: reports.seq }).from(reports).where(and(shown, inArray(reports.seq, seqs))))
      return new Set(rows.map((r) => r.seq))
    },

    /** How many reports `where` selects in each status. */
    totalsByStatus: async (where: SQL): Promise<Map<string, number>> =>
      new Map((await db.read((q) => q.select({ status: reports.status, n: count() }).from(reports).where(where).groupBy(reports.status))).map((t) => [t.status, t.n])),

    /**
     * The report numbered `reportNumber` among those `shown` (its seq and upvotes), or undefined;
     * locked until the vote's write ends, so concurrent votes on it check the per-address cap in turn.
     */
    voteTarget: async (shown: SQL, reportNumber: number) =>
      (await db.write((q) => lockedForWrite(q.select({ seq: reports.seq, upvotes: reports.upvotes }).from(reports).where(and(shown, eq(reports.reportNumber, reportNumber))).limit(1))))[0],

    /** Votes on the report from the address key `address` after `since`. */
    votesFromAddress: async (reportSeq: number, address: string, since: Date): Promise<number> => {
      const [row] = await db.read((q) =>
        q
          .select({ n: count() })
          .from(reportVotes)
          .where(and(eq(reportVotes.reportSeq, reportSeq), eq(reportVotes.addressKey, address), gt(reportVotes.createdAt, since))),
      )
      return row!.n
    },

    /** Records a vote and bumps the report's count; undefined (nothing changed) when this voter already voted for it. */
    addVote: (row: typeof reportVotes.$inferInsert): Promise<number | undefined> =>
      db.write(async (q) => {
        const inserted = await q.insert(reportVotes).values(row).onConflictDoNothing().returning({ seq: reportVotes.reportSeq })
        if (inserted.length === 0) return undefined
        const [bumped] = await q
          .update(reports)
          .set({ upvotes: sql`${reports.upvotes} + 1` })
          .where(eq(reports.seq, row.reportSeq))
          .returning({ upvotes: reports.upvotes })
        return bumped!.upvotes
      }),

    /** Of the project's reports numbered `reportNumbers`, the numbers of those the voter key `voterKey` voted for. */
    votedNumbers: async (projectId: string, reportNumbers: number[], voterKey: string): Promise<Set<number>> => {
      const rows = await db.read((q) =>
        q
          .select({ n: reports.reportNumber })
          .from(reportVotes)
          .innerJoin(reports, eq(reports.seq, reportVotes.reportSeq))
          .where(and(eq(reportVotes.voterKey, voterKey), eq(reports.projectId, projectId), inArray(reports.reportNumber, reportNumbers))),
      )
      return new Set(rows.map((r) => r.n))
    },

    /** Whether the address (in lower case) opted out of the project's reply mails. */
    optedOut: async (projectId: string, email: string): Promise<boolean> =>
      (await db.read((q) => q.select({ email: replyMailOptOuts.email }).from(replyMailOptOuts).where(and(eq(replyMailOptOuts.projectId, projectId), eq(replyMailOptOuts.email, email))).limit(1))).length > 0,

    /** Records an opt-out from the project's reply mails (again: no change). */
    optOut: (row: typeof replyMailOptOuts.$inferInsert) => db.write((q) => q.insert(replyMailOptOuts).values(row).onConflictDoNothing()),

    /** How many voter rows each of these reports has, by seq (reports without votes left out). */
    voteCountsOf: async (seqs: number[]): Promise<Map<number, number>> => {
      const rows = await db.read((q) => q.select({ seq: reportVotes.reportSeq, n: count() }).from(reportVotes).where(inArray(reportVotes.reportSeq, seqs)).groupBy(reportVotes.reportSeq))
      return new Map(rows.map((r) => [r.seq, r.n]))
    },

    /** Copies the votes of the `fromSeqs` reports onto report `toSeq` (a merge), each voter once; how many it gained. */
    copyVotes: async (fromSeqs: number[], toSeq: number): Promise<number> => {
      const moved = await db.write((q) =>
        q
          .insert(reportVotes)
          .select(
            q
              .select({ reportSeq: sql<number>`cast(${toSeq} as integer)`.as('report_seq'), voterKey: reportVotes.voterKey, addressKey: reportVotes.addressKey, createdAt: reportVotes.createdAt })
              .from(reportVotes)
              .where(inArray(reportVotes.reportSeq, fromSeqs)),
          )
          .onConflictDoNothing()
          .returning({ voterKey: reportVotes.voterKey }),
      )
      return moved.length
    },
  }
}
