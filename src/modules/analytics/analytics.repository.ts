import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm'
import { onPostgres, rowsOf, type Seam } from '../../db/client'
import {
  analyticsCrashGroups,
  analyticsCrashGroupVersions,
  analyticsDailyReports,
  analyticsDailyResolved,
  analyticsPerfHistogram,
  analyticsRegressions,
  analyticsReportDimensions,
  analyticsVersions,
} from './analytics.table'

export type Regression = typeof analyticsRegressions.$inferSelect
export type CrashGroup = typeof analyticsCrashGroups.$inferSelect
type RegressionDecision = Pick<Regression, 'status' | 'resolvedVersion' | 'regressedVersion' | 'decidedBy' | 'updatedAt'>

const pairOf = (projectId: string, originalId: string, newId: string) =>
  and(eq(analyticsRegressions.projectId, projectId), eq(analyticsRegressions.originalBugId, originalId), eq(analyticsRegressions.newBugId, newId))

/**
 * Every read and write of the analytics tables behind the crash, release-health, usage, regression
 * and performance answers, as async functions over the database seam (the rollup's writes are in
 * analytics.rollup.repository.ts, players in players.repository.ts, telemetry in telemetry.repository.ts).
 * Performance snapshots and replays are the SDK's tables, read here until that domain has a repository;
 * the satisfaction ratings are joined to the reports in raw SQL (see `liveReportRatings`).
 */
export function createAnalyticsRepository({ db }: { db: Seam }) {
  return {
    /** Reports per UTC day, version and platform from `from` on (analytics_daily_reports). */
    reportDays: (projectId: string, from: string, version?: string) =>
      db.read((q) =>
        q
          .select({
            day: analyticsDailyReports.day,
            game_version: analyticsDailyReports.gameVersion,
            platform: analyticsDailyReports.platform,
            reports: analyticsDailyReports.reports,
            crash_reports: analyticsDailyReports.crashReports,
            events: analyticsDailyReports.events,
            crash_events: analyticsDailyReports.crashEvents,
            crashes: analyticsDailyReports.crashes,
          })
          .from(analyticsDailyReports)
          .where(and(eq(analyticsDailyReports.projectId, projectId), gte(analyticsDailyReports.day, from), version === undefined ? undefined : eq(analyticsDailyReports.gameVersion, version))),
      ),

    /** Reports, events, crash-or-error events and crashes per UTC day of these projects together from `from` on. */
    dailyTotals: async (projectIds: string[], from: string) => {
      if (!projectIds.length) return []
      const d = analyticsDailyReports
      return db.read((q) =>
        q
          .select({ day: d.day, n: sql<number>`sum(${d.reports})`.mapWith(Number), events: sql<number>`sum(${d.events})`.mapWith(Number), crashEvents: sql<number>`sum(${d.crashEvents})`.mapWith(Number), crashes: sql<number>`sum(${d.crashes})`.mapWith(Number) })
          .from(d)
          .where(and(inArray(d.projectId, projectIds), gte(d.day, from)))
          .groupBy(d.day),
      )
    },

    /** Live reports per priority and per category of these projects. */
    dimensions: async (projectIds: string[]) => (projectIds.length ? db.read((q) => q.select().from(analyticsReportDimensions).where(inArray(analyticsReportDimensions.projectId, projectIds))) : []),

    /** Reports moved to resolved per UTC day of these projects together from `from` on. */
    dailyResolved: async (projectIds: string[], from: string) => {
      if (!projectIds.length) return []
      const r = analyticsDailyResolved
      return db.read((q) => q.select({ day: r.day, n: sql<number>`sum(${r.n})`.mapWith(Number) }).from(r).where(and(inArray(r.projectId, projectIds), gte(r.day, from))).groupBy(r.day))
    },

    /** Every version of the project with when it was first seen and its distinct players. */
    versions: (projectId: string) =>
      db.read((q) => q.select({ version: analyticsVersions.gameVersion, firstSeen: analyticsVersions.firstSeen, players: analyticsVersions.players }).from(analyticsVersions).where(eq(analyticsVersions.projectId, projectId))),

    /** The project's crash groups, most events first (in `version` when given, by their events there, with their events and players in it). */
    crashGroups: (projectId: string, o: { limit: number; version?: string }) =>
      db.read((q) =>
        o.version
          ? q
              .select({ g: analyticsCrashGroups, inVersion: { events: analyticsCrashGroupVersions.count, players: analyticsCrashGroupVersions.players } })
              .from(analyticsCrashGroupVersions)
              .innerJoin(analyticsCrashGroups, eq(analyticsCrashGroups.id, analyticsCrashGroupVersions.groupId))
              .where(and(eq(analyticsCrashGroups.projectId, projectId), eq(analyticsCrashGroupVersions.gameVersion, o.version)))
              .orderBy(desc(analyticsCrashGroupVersions.count), desc(analyticsCrashGroups.lastSeen))
              .limit(o.limit)
          : q
              .select({ g: analyticsCrashGroups, inVersion: sql<{ events: number; players: number } | null>`null` })
              .from(analyticsCrashGroups)
              .where(eq(analyticsCrashGroups.projectId, projectId))
              .orderBy(desc(analyticsCrashGroups.count), desc(analyticsCrashGroups.lastSeen))
              .limit(o.limit),
      ),

    /** The per-version rows of these crash groups. */
    crashGroupVersions: async (groupIds: number[]) => (groupIds.length ? db.read((q) => q.select().from(analyticsCrashGroupVersions).where(inArray(analyticsCrashGroupVersions.groupId, groupIds))) : []),

    /** The project's regression decisions, newest first (at most `limit`), optionally of one status. */
    regressions: (projectId: string, limit: number, status?: Regression['status']) =>
      db.read((q) =>
        q
          .select()
          .from(analyticsRegressions)
          .where(and(eq(analyticsRegressions.projectId, projectId), status ? eq(analyticsRegressions.status, status) : undefined))
          .orderBy(desc(analyticsRegressions.updatedAt))
          .limit(limit),
      ),

    /** The (original, new) report id pairs decided in the project. */
    decidedPairs: (projectId: string) => db.read((q) => q.select({ originalId: analyticsRegressions.originalBugId, newId: analyticsRegressions.newBugId }).from(analyticsRegressions).where(eq(analyticsRegressions.projectId, projectId))),

    /** Records the decision on a pair (a new row, or the existing one changed); returns it and whether it was new. */
    decide: (row: { id: string; projectId: string; originalBugId: string; newBugId: string; createdAt: Date } & RegressionDecision) =>
      db.write(async (q) => {
        const where = pairOf(row.projectId, row.originalBugId, row.newBugId)
        const [existing] = await q.select({ id: analyticsRegressions.id }).from(analyticsRegressions).where(where).limit(1)
        const { status, resolvedVersion, regressedVersion, decidedBy, updatedAt } = row
        const [saved] = existing
          ? await q.update(analyticsRegressions).set({ status, resolvedVersion, regressedVersion, decidedBy, updatedAt }).where(eq(analyticsRegressions.id, existing.id)).returning()
          : await q.insert(analyticsRegressions).values(row).returning()
        return { created: !existing, regression: saved! }
      }),

    /** The project's performance histogram rows of these versions. */
    perfHistogram: (projectId: string, versions: string[]) =>
      db.read((q) =>
        q
          .select({ gameVersion: analyticsPerfHistogram.gameVersion, platform: analyticsPerfHistogram.platform, metric: analyticsPerfHistogram.metric, value: analyticsPerfHistogram.value, count: analyticsPerfHistogram.count })
          .from(analyticsPerfHistogram)
          .where(and(eq(analyticsPerfHistogram.projectId, projectId), inArray(analyticsPerfHistogram.gameVersion, versions))),
      ),

    /**
     * The ratings of the project's live reports with when each was last given (ms). Joins the workflow
     * domain's report_ratings to the reports in one statement: ratings are few (one per team member and
     * report), and CROSS JOIN keeps them the outer loop, where the planner would otherwise walk a million
     * reports of the project looking for ratings.
     */
    liveReportRatings: (projectId: string) =>
      db.read(async (q) => {
        // CROSS JOIN is SQLite's join-order hint; PostgreSQL takes no ON after it (and plans the join itself).
        const rows = await rowsOf<{ rating: number; at: number }>(q, sql`SELECT rr.rating AS rating, rr.updated_at AS at FROM report_ratings rr
      ${onPostgres(q) ? sql`JOIN` : sql`CROSS JOIN`} reports r ON r.id = rr.report_id WHERE r.project_id = ${projectId} AND r.deleted_at IS NULL`)
        // PostgreSQL answers a raw int8 (updated_at) as a string.
        return rows.map((r) => ({ rating: Number(r.rating), at: Number(r.at) }))
      }),

    /** Records a report reopened by a newer build as a confirmed regression of itself (again: confirmed anew). */
    confirmRegression: (r: { id: string; projectId: string; reportId: string; resolvedVersion: string; regressedVersion: string; now: Date }) => {
      const values = { status: 'confirmed' as const, resolvedVersion: r.resolvedVersion, regressedVersion: r.regressedVersion, decidedBy: null, updatedAt: r.now }
      return db.write(async (q) => {
        await q
          .insert(analyticsRegressions)
          .values({ id: r.id, projectId: r.projectId, originalBugId: r.reportId, newBugId: r.reportId, createdAt: r.now, ...values })
          .onConflictDoUpdate({ target: [analyticsRegressions.projectId, analyticsRegressions.originalBugId, analyticsRegressions.newBugId], set: { ...values, updatedAt: sql`excluded.updated_at` } })
      })
    },
  }
}
