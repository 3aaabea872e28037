import { and, count, eq, gte, inArray, lt, ne } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { discordApps, discordSubmissions } from './discord.table'

export type DiscordApp = typeof discordApps.$inferSelect
export type DiscordSubmissionRow = typeof discordSubmissions.$inferSelect
type SubmissionStatus = DiscordSubmissionRow['status']

/** Every read and write of discord_apps and discord_submissions, as async functions over the database seam. */
export function createDiscordRepository({ db }: { db: Seam }) {
  return {
    /** The project's Discord application, or undefined. */
    appOf: async (projectId: string): Promise<DiscordApp | undefined> => (await db.read((q) => q.select().from(discordApps).where(eq(discordApps.projectId, projectId)).limit(1)))[0],

    /** The application an interaction names, or undefined. */
    appByApplicationId: async (applicationId: string): Promise<DiscordApp | undefined> =>
      (await db.read((q) => q.select().from(discordApps).where(eq(discordApps.applicationId, applicationId)).limit(1)))[0],

    insertApp: (row: typeof discordApps.$inferInsert) => db.write((q) => q.insert(discordApps).values(row)),

    updateApp: (id: string, set: Partial<typeof discordApps.$inferInsert>) => db.write((q) => q.update(discordApps).set(set).where(eq(discordApps.id, id))),

    removeApp: (id: string) => db.write((q) => q.delete(discordApps).where(eq(discordApps.id, id))),

    /** How many forms `userId` sent to the project since `since` (commands holding a screenshot are not forms). */
    sentSince: async (projectId: string, userId: string, since: Date): Promise<number> =>
      (
        await db.read((q) =>
          q
            .select({ n: count() })
            .from(discordSubmissions)
            .where(and(eq(discordSubmissions.projectId, projectId), eq(discordSubmissions.userId, userId), gte(discordSubmissions.createdAt, since), ne(discordSubmissions.status, 'command'))),
        )
      )[0]!.n,

    /** Records a form; false when that interaction was recorded before (Discord retried it). */
    insertSubmission: async (row: typeof discordSubmissions.$inferInsert): Promise<boolean> =>
      (await db.write((q) => q.insert(discordSubmissions).values(row).onConflictDoNothing().returning({ id: discordSubmissions.interactionId }))).length > 0,

    submission: async (interactionId: string): Promise<DiscordSubmissionRow | undefined> =>
      (await db.read((q) => q.select().from(discordSubmissions).where(eq(discordSubmissions.interactionId, interactionId)).limit(1)))[0],

    /** Moves a form from `from` to `set.status`; false when another worker or click moved it first. */
    advance: async (interactionId: string, from: SubmissionStatus[], set: Partial<typeof discordSubmissions.$inferInsert> & { status: SubmissionStatus; updatedAt: Date }): Promise<boolean> => {
      const rows = await db.write((q) =>
        q
          .update(discordSubmissions)
          .set(set)
          .where(and(eq(discordSubmissions.interactionId, interactionId), inArray(discordSubmissions.status, from)))
          .returning({ id: discordSubmissions.interactionId }),
      )
      return rows.length > 0
    },

    /**
     * Forms older than `before` that did not become a report (voted instead, abandoned, commands holding a
     * screenshot) are deleted; the filed ones stay, for the status replies.
     */
    pruneUnfiled: (before: Date) =>
      db.write((q) => q.delete(discordSubmissions).where(and(lt(discordSubmissions.createdAt, before), ne(discordSubmissions.status, 'filed')))),

    /** The form that filed the report, if it came from Discord. */
    filedAs: async (reportId: string): Promise<DiscordSubmissionRow | undefined> =>
      (await db.read((q) => q.select().from(discordSubmissions).where(and(eq(discordSubmissions.reportId, reportId), eq(discordSubmissions.status, 'filed'))).limit(1)))[0],
  }
}

export type DiscordRepository = ReturnType<typeof createDiscordRepository>
