import { and, asc, eq } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { savedFilters, savedViews } from './workflow.table'

export type SavedFilter = typeof savedFilters.$inferSelect
export type SavedView = typeof savedViews.$inferSelect

const ownView = (userId: string, id: string) => and(eq(savedViews.id, id), eq(savedViews.userId, userId))

/** Every read and write of saved_filters and saved_views, as async functions over the database seam. */
export function createSavedViewsRepository({ db }: { db: Seam }) {
  return {
    /** A user's saved filters (of one project when given), oldest first. */
    filters: (userId: string, projectId?: string) =>
      db.read((q) =>
        q
          .select()
          .from(savedFilters)
          .where(and(eq(savedFilters.userId, userId), projectId ? eq(savedFilters.projectId, projectId) : undefined))
          .orderBy(asc(savedFilters.createdAt), asc(savedFilters.id)),
      ),

    insertFilter: async (row: typeof savedFilters.$inferInsert): Promise<SavedFilter> => (await db.write((q) => q.insert(savedFilters).values(row).returning()))[0]!,

    /** Deletes one of the user's saved filters; false when the user has none of that id. */
    removeFilter: async (userId: string, id: string): Promise<boolean> =>
      (await db.write((q) => q.delete(savedFilters).where(and(eq(savedFilters.id, id), eq(savedFilters.userId, userId))).returning({ id: savedFilters.id }))).length > 0,

    /** A user's saved views (of one project when given), by project and position. */
    views: (userId: string, projectId?: string) =>
      db.read((q) =>
        q
          .select()
          .from(savedViews)
          .where(and(eq(savedViews.userId, userId), projectId ? eq(savedViews.projectId, projectId) : undefined))
          .orderBy(asc(savedViews.projectId), asc(savedViews.position)),
      ),

    /** One of the user's views, or undefined. */
    view: async (userId: string, id: string): Promise<SavedView | undefined> => (await db.read((q) => q.select().from(savedViews).where(ownView(userId, id)).limit(1)))[0],

    /** The owner's views of a project in their order. */
    siblings: (userId: string, projectId: string) =>
      db.read((q) => q.select().from(savedViews).where(and(eq(savedViews.userId, userId), eq(savedViews.projectId, projectId))).orderBy(asc(savedViews.position), asc(savedViews.createdAt))),

    insertView: async (row: typeof savedViews.$inferInsert): Promise<SavedView> => (await db.write((q) => q.insert(savedViews).values(row).returning()))[0]!,

    updateView: (id: string, set: Partial<typeof savedViews.$inferInsert>) => db.write((q) => q.update(savedViews).set(set).where(eq(savedViews.id, id))),

    removeView: (id: string) => db.write((q) => q.delete(savedViews).where(eq(savedViews.id, id))),

    /** Renumbers views 0..n-1 in `order`, writing only those that move. */
    renumber: (order: SavedView[]) =>
      db.write(async (q) => {
        for (const [i, v] of order.entries()) if (v.position !== i) await q.update(savedViews).set({ position: i }).where(eq(savedViews.id, v.id))
      }),
  }
}
