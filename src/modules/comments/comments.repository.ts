import { and, asc, eq, inArray, notInArray } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { comments } from './comments.table'

export type Comment = typeof comments.$inferSelect

/** Every read and write of the comments table, as async functions over the database seam. */
export function createCommentsRepository({ db }: { db: Seam }) {
  return {
    insert: (row: typeof comments.$inferInsert) => db.write((q) => q.insert(comments).values(row)),

    /** Every comment of a report, oldest first, internal ones included. */
    ofReport: (reportId: string) => db.read((q) => q.select().from(comments).where(eq(comments.reportId, reportId)).orderBy(asc(comments.createdAt), asc(comments.id))),

    /** The public (not internal) comments of a report, oldest first. */
    publicOf: (reportId: string) =>
      db.read((q) =>
        q
          .select({ id: comments.id, body: comments.body, authorId: comments.authorId, createdAt: comments.createdAt })
          .from(comments)
          .where(and(eq(comments.reportId, reportId), eq(comments.isInternal, false)))
          .orderBy(asc(comments.createdAt), asc(comments.id)),
      ),

    /** One comment (its report, body and whether it is internal), or undefined. */
    find: async (id: string) => (await db.read((q) => q.select({ reportId: comments.reportId, body: comments.body, isInternal: comments.isInternal }).from(comments).where(eq(comments.id, id)).limit(1)))[0],

    /** Moves the comments of the `fromIds` reports to report `to` (merge). */
    moveToReport: (fromIds: string[], to: string) => db.write((q) => q.update(comments).set({ reportId: to }).where(inArray(comments.reportId, fromIds))),

    /** The comments `authorId` wrote, oldest first, leaving out those in `hiddenProjectIds` (a personal data export). */
    byAuthor: (authorId: string, hiddenProjectIds: string[]) =>
      db.read((q) =>
        q
          .select()
          .from(comments)
          .where(and(eq(comments.authorId, authorId), hiddenProjectIds.length ? notInArray(comments.projectId, hiddenProjectIds) : undefined))
          .orderBy(asc(comments.createdAt)),
      ),

    /** Detaches a deleted user from the comments they wrote (the comments stay, without an author). */
    detachAuthor: (authorId: string) => db.write((q) => q.update(comments).set({ authorId: null }).where(eq(comments.authorId, authorId))),
  }
}
