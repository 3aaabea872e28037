import { and, desc, eq, isNotNull, max } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { changelogEntries } from './changelog.table'

export type ChangelogEntry = typeof changelogEntries.$inferSelect
type NewEntry = typeof changelogEntries.$inferInsert
type EntryChanges = Partial<Pick<NewEntry, 'title' | 'body' | 'version' | 'publishedAt' | 'updatedAt'>>

const entryOf = (projectId: string, entryId: string) => and(eq(changelogEntries.projectId, projectId), eq(changelogEntries.id, entryId))

/** Every read and write of the changelog's table, as async functions over the database seam. */
export function createChangelogRepository({ db }: { db: Seam }) {
  return {
    /** Up to `limit` published entries, newest first. */
    published: (projectId: string, limit: number) =>
      db.read((q) =>
        q
          .select()
          .from(changelogEntries)
          .where(and(eq(changelogEntries.projectId, projectId), isNotNull(changelogEntries.publishedAt)))
          .orderBy(desc(changelogEntries.publishedAt), desc(changelogEntries.createdAt))
          .limit(limit),
      ),

    /** Every entry, drafts included, newest first. */
    all: (projectId: string) =>
      db.read((q) => q.select().from(changelogEntries).where(eq(changelogEntries.projectId, projectId)).orderBy(desc(changelogEntries.createdAt), desc(changelogEntries.id))),

    /** When the project's latest entry was published; null before the first. */
    lastPublishedAt: async (projectId: string): Promise<Date | null> => {
      const [row] = await db.read((q) => q.select({ at: max(changelogEntries.publishedAt) }).from(changelogEntries).where(eq(changelogEntries.projectId, projectId)))
      return row?.at ?? null
    },

    /** One entry of the project, or undefined. */
    find: async (projectId: string, entryId: string): Promise<ChangelogEntry | undefined> => {
      const [row] = await db.read((q) => q.select().from(changelogEntries).where(entryOf(projectId, entryId)).limit(1))
      return row
    },

    insert: async (row: NewEntry): Promise<ChangelogEntry> => {
      const [entry] = await db.write((q) => q.insert(changelogEntries).values(row).returning())
      return entry!
    },

    update: async (entryId: string, changes: EntryChanges): Promise<ChangelogEntry> => {
      const [entry] = await db.write((q) => q.update(changelogEntries).set(changes).where(eq(changelogEntries.id, entryId)).returning())
      return entry!
    },

    /** Deletes one entry of the project; false when it has none of that id. */
    remove: async (projectId: string, entryId: string): Promise<boolean> => {
      const gone = await db.write((q) => q.delete(changelogEntries).where(entryOf(projectId, entryId)).returning({ id: changelogEntries.id }))
      return gone.length > 0
    },
  }
}
