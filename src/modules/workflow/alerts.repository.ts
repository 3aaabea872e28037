import { and, asc, eq, gte, sql } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { createProjectsRepository } from '../projects/projects.repository'
import { alertRules, reportHourlyCounts, rollupCursors } from './workflow.table'

export type AlertRule = typeof alertRules.$inferSelect

/** New reports of one project and hour, as the alert job adds them up. */
export interface HourBucket {
  projectId: string
  hour: number
  reports: number
  crashes: number
  negative: number
}

const ruleOf = (projectId: string, id: string) => and(eq(alertRules.id, id), eq(alertRules.projectId, projectId))

/** Every read and write of alert_rules, report_hourly_counts and rollup_cursors, as async functions over the database seam. */
export function createAlertsRepository({ db }: { db: Seam }) {
  return {
    /** The project's alert rules, oldest first. */
    rules: (projectId: string) => db.read((q) => q.select().from(alertRules).where(eq(alertRules.projectId, projectId)).orderBy(asc(alertRules.createdAt), asc(alertRules.id))),

    /** One rule of the project, or undefined. */
    rule: async (projectId: string, id: string): Promise<AlertRule | undefined> => (await db.read((q) => q.select().from(alertRules).where(ruleOf(projectId, id)).limit(1)))[0],

    /** Every enabled rule with its project's name, slug and account. */
    enabledRules: async () => {
      const rules = await db.read((q) => q.select().from(alertRules).where(eq(alertRules.enabled, true)))
      const projects = await createProjectsRepository({ db }).byIds(rules.map((r) => r.projectId))
      return rules.flatMap((rule) => {
        const p = projects.get(rule.projectId)
        return p ? [{ rule, project: { name: p.name, slug: p.slug, accountId: p.accountId } }] : []
      })
    },

    insertRule: async (row: typeof alertRules.$inferInsert): Promise<AlertRule> => (await db.write((q) => q.insert(alertRules).values(row).returning()))[0]!,

    updateRule: async (id: string, set: Partial<typeof alertRules.$inferInsert>): Promise<AlertRule> => (await db.write((q) => q.update(alertRules).set(set).where(eq(alertRules.id, id)).returning()))[0]!,

    removeRule: (id: string) => db.write((q) => q.delete(alertRules).where(eq(alertRules.id, id))),

    /** New reports, crash reports and negative reports of a project from the hour `from` on. */
    countsSince: async (projectId: string, from: Date) => {
      const [row] = await db.read((q) =>
        q
          .select({
            reports: sql<number>`coalesce(sum(${reportHourlyCounts.reports}), 0)`,
            crashReports: sql<number>`coalesce(sum(${reportHourlyCounts.crashReports}), 0)`,
            negativeReports: sql<number>`coalesce(sum(${reportHourlyCounts.negativeReports}), 0)`,
          })
          .from(reportHourlyCounts)
          .where(and(eq(reportHourlyCounts.projectId, projectId), gte(reportHourlyCounts.hour, from))),
      )
      return row ?? { reports: 0, crashReports: 0, negativeReports: 0 }
    },

    /** Where the named background counter stopped, or undefined before its first run. */
    cursor: async (name: string): Promise<number | undefined> => {
      const position = (await db.read((q) => q.select({ position: rollupCursors.position }).from(rollupCursors).where(eq(rollupCursors.name, name)).limit(1)))[0]?.position
      // On PostgreSQL the position is an int8 (rollup-cursors.pg.ts), read back as a string.
      return position === undefined ? undefined : Number(position)
    },

    /** Adds buckets to the hourly counts and moves the named cursor to `position`, in one write. */
    addCounts: (buckets: HourBucket[], name: string, position: number) =>
      db.write(async (q) => {
        for (const b of buckets) {
          await q
            .insert(reportHourlyCounts)
            .values({ projectId: b.projectId, hour: new Date(b.hour), reports: b.reports, crashReports: b.crashes, negativeReports: b.negative })
            .onConflictDoUpdate({
              target: [reportHourlyCounts.projectId, reportHourlyCounts.hour],
              set: {
                reports: sql`${reportHourlyCounts.reports} + ${b.reports}`,
                crashReports: sql`${reportHourlyCounts.crashReports} + ${b.crashes}`,
                negativeReports: sql`${reportHourlyCounts.negativeReports} + ${b.negative}`,
              },
            })
        }
        await q.insert(rollupCursors).values({ name, position }).onConflictDoUpdate({ target: rollupCursors.name, set: { position } })
      }),

    /** Moves the named background counter's cursor to `position` (the analytics rollup's cursors). */
    setCursor: (name: string, position: number) =>
      db.write(async (q) => {
        await q.insert(rollupCursors).values({ name, position }).onConflictDoUpdate({ target: rollupCursors.name, set: { position } })
      }),
  }
}
