import { and, asc, eq, inArray, or } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { createReportsRepository } from '../reports/reports.repository'
import { reportDependencies } from './workflow.table'

export type Dependency = typeof reportDependencies.$inferSelect

/** A link seen from one report: `blocks` (this report blocks the other) or `blocked_by`. */
export interface DependencyView {
  id: string
  relationship: 'blocks' | 'blocked_by'
  report: { id: string; number: number; title: string; status: string }
  created_at: string
}

/** Every read and write of report_dependencies, as async functions over the database seam. */
export function createDependenciesRepository({ db }: { db: Seam }) {
  return {
    /** Every live link of `reportId`, each seen from its side, with the other report's number, title and status. */
    linksOf: async (reportId: string): Promise<DependencyView[]> => {
      const links = await db.read((q) =>
        q
          .select()
          .from(reportDependencies)
          .where(or(eq(reportDependencies.blockerId, reportId), eq(reportDependencies.blockedId, reportId)))
          .orderBy(asc(reportDependencies.createdAt), asc(reportDependencies.id)),
      )
      if (links.length === 0) return []
      const otherIds = links.map((l) => (l.blockerId === reportId ? l.blockedId : l.blockerId))
      const rows = await createReportsRepository({ db }).summariesOf(otherIds)
      const others = new Map(rows.filter((r) => !r.deletedAt).map((r) => [r.id, r]))
      return links.flatMap((l) => {
        const blocks = l.blockerId === reportId
        const other = others.get(blocks ? l.blockedId : l.blockerId)
        if (!other) return []
        return [{ id: l.id, relationship: blocks ? 'blocks' : 'blocked_by', report: { id: other.id, number: other.number, title: other.title, status: other.status }, created_at: l.createdAt.toISOString() } as DependencyView]
      })
    },

    /** One link of the project, or undefined. */
    find: async (projectId: string, depId: string): Promise<Dependency | undefined> =>
      (await db.read((q) => q.select().from(reportDependencies).where(and(eq(reportDependencies.id, depId), eq(reportDependencies.projectId, projectId))).limit(1)))[0],

    /** Whether `blockerId` already blocks `blockedId`. */
    exists: async (blockerId: string, blockedId: string): Promise<boolean> =>
      (await db.read((q) => q.select({ id: reportDependencies.id }).from(reportDependencies).where(and(eq(reportDependencies.blockerId, blockerId), eq(reportDependencies.blockedId, blockedId))).limit(1))).length > 0,

    /** Every "a blocks b" link of the project (a project's link graph is small next to its reports). */
    edgesOf: (projectId: string) => db.read((q) => q.select({ a: reportDependencies.blockerId, b: reportDependencies.blockedId }).from(reportDependencies).where(eq(reportDependencies.projectId, projectId))),

    insert: (row: typeof reportDependencies.$inferInsert) => db.write((q) => q.insert(reportDependencies).values(row)),

    remove: (depId: string) => db.write((q) => q.delete(reportDependencies).where(eq(reportDependencies.id, depId))),

    /**
     * Moves the dependencies of the `fromIds` reports onto report `toId` (a merge). Links among the
     * reports merged together would make a report block itself: they go. A link `toId` has already
     * stays behind.
     */
    moveToReport: (fromIds: string[], toId: string) =>
      db.write(async (q) => {
        const all = [...fromIds, toId]
        await q.delete(reportDependencies).where(and(inArray(reportDependencies.blockerId, all), inArray(reportDependencies.blockedId, all)))
        const rows = await q
          .select({ id: reportDependencies.id, blockerId: reportDependencies.blockerId, blockedId: reportDependencies.blockedId })
          .from(reportDependencies)
          .where(or(inArray(reportDependencies.blockerId, all), inArray(reportDependencies.blockedId, all)))
          .orderBy(asc(reportDependencies.createdAt), asc(reportDependencies.id))
        const from = new Set(fromIds)
        const pair = (blocker: string, blocked: string) => `${blocker} ${blocked}`
        const taken = new Set(rows.filter((r) => r.blockerId === toId || r.blockedId === toId).map((r) => pair(r.blockerId, r.blockedId)))
        const blockers: string[] = []
        const blocked: string[] = []
        for (const r of rows) {
          // After the delete above a link has a merged report on one side only.
          const side = from.has(r.blockerId) ? blockers : from.has(r.blockedId) ? blocked : null
          const moved = side === blockers ? pair(toId, r.blockedId) : pair(r.blockerId, toId)
          if (!side || taken.has(moved)) continue
          taken.add(moved)
          side.push(r.id)
        }
        if (blockers.length > 0) await q.update(reportDependencies).set({ blockerId: toId }).where(inArray(reportDependencies.id, blockers))
        if (blocked.length > 0) await q.update(reportDependencies).set({ blockedId: toId }).where(inArray(reportDependencies.id, blocked))
      }),
  }
}
