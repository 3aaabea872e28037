import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm'
import { onPostgres, preparedPerConnection, type Query, type Seam } from '../../db/client'
import { inJsonList } from '../../db/portable-sql'
import { reportSla, slaRules } from './workflow.table'
import { oncePerWrite } from '../../db/write-scope'

/** A report's SLA clock as stored. */
export type SlaClock = typeof reportSla.$inferSelect
export type SlaRule = typeof slaRules.$inferSelect

/** Every read and write of sla_rules and report_sla, as async functions over the database seam (the event subscriber aside). */
export function createSlaRepository({ db }: { db: Seam }) {
  return {
    /** The project's rules, one per priority (asked once per write: a bulk change's events share them). */
    rules: (projectId: string) => db.read((q) => q.select().from(slaRules).where(eq(slaRules.projectId, projectId))),

    /** Replaces every rule of the project. */
    replaceRules: (projectId: string, rules: Omit<SlaRule, 'projectId'>[]) =>
      db.write(async (q) => {
        await q.delete(slaRules).where(eq(slaRules.projectId, projectId))
        if (rules.length) await q.insert(slaRules).values(rules.map((r) => ({ ...r, projectId })))
      }),

    /** One report's clock, or undefined. */
    clockOf: async (reportId: string): Promise<SlaClock | undefined> => (await db.read((q) => q.select().from(reportSla).where(eq(reportSla.reportId, reportId)).limit(1)))[0],

    /** The clocks of a list page's reports: one prepared query over the page's ids. */
    clocksOf: async (reportIds: string[]): Promise<SlaClock[]> => {
      if (reportIds.length === 0) return []
      return db.read((q) => clocksOfReports(q).execute({ ids: JSON.stringify(reportIds) }))
    },

    /**
     * Marks up to `limit` running clocks per part that ran past their due time as breached at `now`;
     * returns the ones marked with their due time. Reads only the partial indexes of running clocks.
     */
    markBreaches: (now: Date, limit: number) =>
      db.write(async (q) => {
        const response = await q
          .select({ reportId: reportSla.reportId, due: reportSla.responseDueAt })
          .from(reportSla)
          .where(and(lte(reportSla.responseDueAt, now), isNull(reportSla.respondedAt), isNull(reportSla.responseBreachedAt)))
          .limit(limit)
        const resolve = await q
          .select({ reportId: reportSla.reportId, due: reportSla.resolveDueAt })
          .from(reportSla)
          .where(and(lte(reportSla.resolveDueAt, now), isNull(reportSla.resolvedAt), isNull(reportSla.resolveBreachedAt)))
          .limit(limit)
        if (response.length) await q.update(reportSla).set({ responseBreachedAt: now }).where(inArray(reportSla.reportId, response.map((c) => c.reportId)))
        if (resolve.length) await q.update(reportSla).set({ resolveBreachedAt: now }).where(inArray(reportSla.reportId, resolve.map((c) => c.reportId)))
        return { response: response.map((c) => ({ reportId: c.reportId, due: c.due! })), resolve: resolve.map((c) => ({ reportId: c.reportId, due: c.due! })) }
      }),
  }
}

/** A list page's clocks, by the page's ids as one JSON parameter (every page size, one statement). */
const clocksOfReports = preparedPerConnection((q: Query) =>
  q.select().from(reportSla).where(inJsonList(onPostgres(q), reportSla.reportId, sql.placeholder('ids'))).prepare(),
)
const rulesOf = preparedPerConnection((q: Query) => q.select().from(slaRules).where(eq(slaRules.projectId, sql.placeholder('projectId'))).prepare())
const byReport = (reportId: string) => eq(reportSla.reportId, reportId)

/**
 * The reads and writes of the SLA event subscriber (sla.service.ts), on the emitter's write `db` (a
 * write inside it joins it). The rules lookup runs for every new report, so it is prepared once per
 * connection.
 */
export const slaSubscriberStatements = (db: Seam) => ({
  /** The project's rules, one per priority (asked once per write: a bulk change's events share them). */
  rules: (projectId: string): Promise<SlaRule[]> => oncePerWrite(db, `sla.rules:${projectId}`, () => db.read((q) => rulesOf(q).execute({ projectId }))),
  /** One report's clock, or undefined. */
  clockOf: async (reportId: string): Promise<SlaClock | undefined> => (await db.read((q) => q.select().from(reportSla).where(byReport(reportId)).limit(1)))[0],
  /** Starts a report's clock (a report has one clock: a second start changes nothing). */
  start: (row: typeof reportSla.$inferInsert) => db.write(async (q) => void (await q.insert(reportSla).values(row).onConflictDoNothing())),
  /** Sets a report's due times, starting its clock at `clock.startedAt` when it has none. */
  setDue: (clock: Pick<typeof reportSla.$inferInsert, 'reportId' | 'projectId' | 'startedAt'>, due: { responseDueAt: Date; resolveDueAt: Date }) =>
    db.write(async (q) => void (await q.insert(reportSla).values({ ...clock, ...due }).onConflictDoUpdate({ target: reportSla.reportId, set: due }))),
  /** Changes a report's clock. */
  update: (reportId: string, set: Partial<typeof reportSla.$inferInsert>) => db.write(async (q) => void (await q.update(reportSla).set(set).where(byReport(reportId)))),
})
