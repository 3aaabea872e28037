import { and, desc, eq } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { apiTokens, users } from './auth.table'

export type ApiTokenRow = typeof apiTokens.$inferSelect

/** Reads and writes of people's API tokens, as async functions over the database seam. */
export function createApiTokensRepository({ db }: { db: Seam }) {
  return {
    insert: (row: typeof apiTokens.$inferInsert) => db.write((q) => q.insert(apiTokens).values(row)),

    /** A user's tokens, newest first. */
    ofUser: (userId: string): Promise<ApiTokenRow[]> => db.read((q) => q.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.createdAt))),

    /** The token with this hash and the user it acts for, or undefined. */
    byHash: async (tokenHash: string): Promise<{ token: ApiTokenRow; user: typeof users.$inferSelect } | undefined> =>
      (await db.read((q) => q.select({ token: apiTokens, user: users }).from(apiTokens).innerJoin(users, eq(users.id, apiTokens.userId)).where(eq(apiTokens.tokenHash, tokenHash)).limit(1)))[0],

    /** Deletes one of a user's tokens; whether there was one. */
    remove: async (userId: string, id: string): Promise<boolean> =>
      (await db.write((q) => q.delete(apiTokens).where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId))).returning({ id: apiTokens.id }))).length > 0,

    markUsed: (id: string, at: Date) => db.write((q) => q.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, id))),
  }
}
