import { asc, eq, inArray } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { comments } from './comments.table'

export type Comment = typeof comments.$inferSelect

/** Every read and write of the comments table, as async functions over the database seam. */
export function createCommentsRepository({ db }: { db: Seam }) {
  return {
    insert: (row: typeof comments.$inferInsert) => db.write((q) => q.insert(comments).values(row)),

    /** Every comment of a report, oldest first, internal ones included. */
    ofReport: (reportId: string) => db.read((q) => q.select().from(comments).where(eq(comments.reportId, reportId)).orderBy(asc(comments.createdAt), asc(comments.id))),

    /** Moves the comments of the `fromIds` reports to report `to` (merge). */
    moveToReport: (fromIds: string[], to: string) => db.write((q) => q.update(comments).set({ reportId: to }).where(inArray(comments.reportId, fromIds))),
  }
}
