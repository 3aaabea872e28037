import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { reports } from '../reports/reports.table'
import { dueNotices, reportImports, reportRatings, reportTemplates } from './workflow.table'

export type Template = typeof reportTemplates.$inferSelect

/** The key of a report's due-date notice in `noticedOf`. */
export const noticeKey = (reportId: string, dueDate: Date) => `${reportId} ${dueDate.getTime()}`

const templateOf = (projectId: string, id: string) => and(eq(reportTemplates.id, id), eq(reportTemplates.projectId, projectId))

/** Every read and write of report templates, ratings, imports and due-date notices, as async functions over the database seam. */
export function createWorkflowRepository({ db }: { db: Seam }) {
  return {
    /** The project's templates, by name. */
    templates: (projectId: string) => db.read((q) => q.select().from(reportTemplates).where(eq(reportTemplates.projectId, projectId)).orderBy(asc(sql`lower(${reportTemplates.name})`))),

    /** One template of the project, or undefined. */
    template: async (projectId: string, id: string): Promise<Template | undefined> => (await db.read((q) => q.select().from(reportTemplates).where(templateOf(projectId, id)).limit(1)))[0],

    /** Whether another template of the project has this name, case aside. */
    templateNameTaken: async (projectId: string, name: string, exceptId?: string): Promise<boolean> => {
      const rows = await db.read((q) =>
        q
          .select({ id: reportTemplates.id })
          .from(reportTemplates)
          .where(and(eq(reportTemplates.projectId, projectId), eq(sql`lower(${reportTemplates.name})`, name.toLowerCase()), exceptId ? ne(reportTemplates.id, exceptId) : undefined))
          .limit(1),
      )
      return rows.length > 0
    },

    insertTemplate: async (row: typeof reportTemplates.$inferInsert): Promise<Template> => (await db.write((q) => q.insert(reportTemplates).values(row).returning()))[0]!,

    updateTemplate: async (id: string, set: Partial<typeof reportTemplates.$inferInsert>): Promise<Template> => (await db.write((q) => q.update(reportTemplates).set(set).where(eq(reportTemplates.id, id)).returning()))[0]!,

    removeTemplate: (id: string) => db.write((q) => q.delete(reportTemplates).where(eq(reportTemplates.id, id))),

    /** A report's ratings, oldest first. */
    ratingsOf: (reportId: string) => db.read((q) => q.select().from(reportRatings).where(eq(reportRatings.reportId, reportId)).orderBy(asc(reportRatings.createdAt))),

    /** The id of the rater's rating of a report, or undefined. */
    ratingBy: async (reportId: string, raterId: string): Promise<string | undefined> =>
      (await db.read((q) => q.select({ id: reportRatings.id }).from(reportRatings).where(and(eq(reportRatings.reportId, reportId), eq(reportRatings.raterId, raterId))).limit(1)))[0]?.id,

    insertRating: (row: typeof reportRatings.$inferInsert) => db.write((q) => q.insert(reportRatings).values(row)),

    updateRating: (id: string, set: { rating: number; comment: string; updatedAt: Date }) => db.write((q) => q.update(reportRatings).set(set).where(eq(reportRatings.id, id))),

    /** Which of these external ids the project already imported (500 a query). */
    importedExternalIds: async (projectId: string, externalIds: string[]): Promise<Set<string>> => {
      const known = new Set<string>()
      for (let i = 0; i < externalIds.length; i += 500) {
        const rows = await db.read((q) => q.select({ id: reportImports.externalId }).from(reportImports).where(and(eq(reportImports.projectId, projectId), inArray(reportImports.externalId, externalIds.slice(i, i + 500)))))
        for (const r of rows) known.add(r.id!)
      }
      return known
    },

    insertImport: (row: typeof reportImports.$inferInsert) => db.write((q) => q.insert(reportImports).values(row)),

    /** One page (50) of the project's imported live reports, newest import first; joins the reports for their number, title and status. */
    importsPage: (projectId: string, page: number) =>
      db.read((q) =>
        q
          .select({ number: reports.reportNumber, title: reports.title, status: reports.status, externalId: reportImports.externalId, externalUrl: reportImports.externalUrl, importId: reportImports.importId, importedAt: reportImports.importedAt })
          .from(reportImports)
          .innerJoin(reports, eq(reports.id, reportImports.reportId))
          .where(and(eq(reportImports.projectId, projectId), isNull(reports.deletedAt)))
          .orderBy(desc(reportImports.importedAt), desc(reports.reportNumber))
          .limit(50)
          .offset((page - 1) * 50),
      ),

    /** The due dates the assignees of these reports have heard of, as `reportId dueDateMs` keys. */
    noticedOf: async (reportIds: string[]): Promise<Set<string>> =>
      reportIds.length
        ? new Set((await db.read((q) => q.select({ reportId: dueNotices.reportId, dueDate: dueNotices.dueDate }).from(dueNotices).where(inArray(dueNotices.reportId, reportIds)))).map((n) => noticeKey(n.reportId, n.dueDate)))
        : new Set(),

    /** Records that a report's assignee heard of its due date (once per report and date). */
    insertNotice: (row: typeof dueNotices.$inferInsert) => db.write((q) => q.insert(dueNotices).values(row).onConflictDoNothing()),
  }
}
