import { asc, count, eq, inArray } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { chunks } from '../../lib/chunks'
import { attachments } from './attachments.table'

export type Attachment = typeof attachments.$inferSelect

/** Every read and write of attachments, as async functions over the database seam. */
export function createAttachmentsRepository({ db }: { db: Seam }) {
  return {
    /** How many attachments the report has. */
    countOf: async (reportId: string): Promise<number> => (await db.read((q) => q.select({ n: count() }).from(attachments).where(eq(attachments.reportId, reportId))))[0]?.n ?? 0,

    insert: (row: Attachment) => db.write((q) => q.insert(attachments).values(row)),

    /** A report's attachments, oldest first. */
    ofReport: (reportId: string) => db.read((q) => q.select().from(attachments).where(eq(attachments.reportId, reportId)).orderBy(asc(attachments.createdAt), asc(attachments.id))),

    /** Moves the attachments of the `fromIds` reports onto report `toId` (a merge). */
    moveToReport: (fromIds: string[], toId: string) => db.write(async (q) => void (await q.update(attachments).set({ reportId: toId }).where(inArray(attachments.reportId, fromIds)))),

    /** Inserts attachment rows (files stored with a submission). */
    insertMany: (rows: (typeof attachments.$inferInsert)[]) => db.write(async (q) => void (await q.insert(attachments).values(rows))),

    /** The stored file keys of the attachments of the `reportIds` reports (a project's deletion). */
    fileKeysOf: async (reportIds: string[]): Promise<string[]> => {
      const keys: string[] = []
      for (const ids of chunks(reportIds)) keys.push(...(await db.read((q) => q.select({ key: attachments.fileKey }).from(attachments).where(inArray(attachments.reportId, ids)))).map((r) => r.key))
      return keys
    },

    /** The attachments of these occurrences (the files an event carried), for their evidence rows. */
    ofOccurrences: (occurrenceIds: string[]) =>
      occurrenceIds.length
        ? db.read((q) =>
            q
              .select({ id: attachments.id, occurrenceId: attachments.occurrenceId, fileName: attachments.fileName, fileSize: attachments.fileSize, mimeType: attachments.mimeType, fileKey: attachments.fileKey })
              .from(attachments)
              .where(inArray(attachments.occurrenceId, occurrenceIds)),
          )
        : Promise.resolve([]),

    /** Moves the attachments of these occurrences to report `reportId` (a split takes its occurrences' files along). */
    moveOccurrencesTo: (occurrenceIds: string[], reportId: string) =>
      occurrenceIds.length ? db.write(async (q) => void (await q.update(attachments).set({ reportId }).where(inArray(attachments.occurrenceId, occurrenceIds)))) : Promise.resolve(),
  }
}
