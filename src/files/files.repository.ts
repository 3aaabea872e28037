import { and, count, eq, inArray, notExists, sum } from 'drizzle-orm'
import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { Seam } from '../db/client'
import { files } from './files.table'

/** `withdrawn_files` as Drizzle sees it, for queries only: created by withdrawn-files.ts (WITHOUT ROWID, kept out of db/schema.ts). */
const withdrawnFiles = sqliteTable('withdrawn_files', { key: text('key').notNull() })

type FileRow = typeof files.$inferSelect

/** Every read and write of the rows of stored files (`files`, `withdrawn_files`), as async functions over the database seam. */
export function createFilesRepository({ db }: { db: Seam }) {
  return {
    insert: (row: typeof files.$inferInsert) => db.write((q) => q.insert(files).values(row)),

    /** The row of a file that is still served (not withdrawn with its deleted report), or undefined. */
    served: async (key: string): Promise<FileRow | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select()
          .from(files)
          .where(and(eq(files.key, key), notExists(q.select({ key: withdrawnFiles.key }).from(withdrawnFiles).where(eq(withdrawnFiles.key, files.key)))))
          .limit(1),
      )
      return row
    },

    /** Deletes the rows of these keys. */
    remove: (keys: string[]) => db.write((q) => q.delete(files).where(inArray(files.key, keys))),

    /** Which of these keys have a row. */
    known: async (keys: string[]): Promise<Set<string>> =>
      new Set((await db.read((q) => q.select({ key: files.key }).from(files).where(inArray(files.key, keys)))).map((r) => r.key)),

    /** Every file's key, type and size, by key. */
    all: () => db.read((q) => q.select({ key: files.key, mimeType: files.mimeType, size: files.size }).from(files).orderBy(files.key)),

    /** Up to `limit` withdrawn keys. */
    withdrawn: async (limit: number): Promise<string[]> => (await db.read((q) => q.select({ key: withdrawnFiles.key }).from(withdrawnFiles).limit(limit))).map((r) => r.key),

    /** Forgets withdrawn keys whose files are gone. */
    forgetWithdrawn: (keys: string[]) => db.write((q) => q.delete(withdrawnFiles).where(inArray(withdrawnFiles.key, keys))),

    /** Bytes and number of stored files, from their rows (wherever the bytes live: the data directory or a bucket). */
    totals: async (): Promise<{ bytes: number; count: number }> => {
      const [row] = await db.read((q) => q.select({ bytes: sum(files.size), count: count() }).from(files))
      return { bytes: Number(row?.bytes ?? 0), count: Number(row?.count ?? 0) }
    },
  }
}
