import { eq, inArray, sql } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { createAccountsRepository } from '../auth/accounts.repository'
import { reports } from '../reports/reports.table'
import { PREFERENCES, type PreferenceKey } from './notifications.schemas'
import { notificationFanouts, notificationKeys, notificationPreferences, reportSubscriptions } from './notifications.table'

type PreferenceColumns = Partial<Record<(typeof PREFERENCES)[PreferenceKey], boolean>>

/**
 * Every read and write of the notification tables (preferences, followers, sent fan-outs, the
 * signing key), over the database seam.
 */
export function createNotificationsRepository({ db }: { db: Seam }) {
  const keyRow = async () => (await db.read((q) => q.select({ key: notificationKeys.key }).from(notificationKeys).where(eq(notificationKeys.id, 1)).limit(1)))[0]
  return {
    /** A user's preferences row, or undefined (every preference on). */
    preferencesOf: async (userId: string) => (await db.read((q) => q.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId)).limit(1)))[0],

    /** Sets the given preference columns of a user, leaving the others. */
    setPreferences: (userId: string, set: PreferenceColumns, now: Date) =>
      db.write((q) =>
        q
          .insert(notificationPreferences)
          .values({ userId, ...set, updatedAt: now })
          .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...set, updatedAt: now } }),
      ),

    /** The key that signs unsubscribe links, made now (with `make`) when there is none yet. */
    signingKey: async (make: () => string): Promise<string> => {
      const found = await keyRow()
      if (found) return found.key
      return db.write(async (q) => {
        await q.insert(notificationKeys).values({ id: 1, key: make() }).onConflictDoNothing()
        return (await keyRow())!.key
      })
    },

    /** Records that job `jobId` wrote its mails; false when an earlier run already had. */
    claim: async (jobId: number, now: Date): Promise<boolean> =>
      (await db.write((q) => q.insert(notificationFanouts).values({ jobId, createdAt: now }).onConflictDoNothing().returning({ jobId: notificationFanouts.jobId }))).length === 1,

    /** Who follows the report. */
    followers: async (reportId: string): Promise<string[]> =>
      (await db.read((q) => q.select({ id: reportSubscriptions.userId }).from(reportSubscriptions).where(eq(reportSubscriptions.reportId, reportId)))).map((s) => s.id),

    /** Each of `userIds`' choice for `preference`; users without a preferences row are missing (every preference on). */
    preferenceOf: async (userIds: string[], preference: PreferenceKey): Promise<Map<string, boolean>> => {
      if (userIds.length === 0) return new Map()
      const column = notificationPreferences[PREFERENCES[preference]]
      const rows = await db.read((q) => q.select({ id: notificationPreferences.userId, on: column }).from(notificationPreferences).where(inArray(notificationPreferences.userId, userIds)))
      return new Map(rows.map((r) => [r.id, r.on]))
    },

    /** Every account's id (the weekly digest goes to each); the accounts domain owns the table. */
    accountIds: () => createAccountsRepository({ db }).allIds(),

    /** Moves the followers of the `fromIds` reports onto report `toId` (a merge); who follows it already stays once. */
    moveSubscriptions: (fromIds: string[], toId: string) =>
      db.write(async (q) => {
        const moved = q.select({ reportId: sql<string>`cast(${toId} as text)`.as('report_id'), userId: reportSubscriptions.userId, createdAt: reportSubscriptions.createdAt }).from(reportSubscriptions)
        await q.insert(reportSubscriptions).select(moved.where(inArray(reportSubscriptions.reportId, fromIds))).onConflictDoNothing()
        await q.delete(reportSubscriptions).where(inArray(reportSubscriptions.reportId, fromIds))
      }),

    /** Makes `userId` follow the report (status changes, comments), if the report exists; one who follows it already stays once. */
    follow: (reportId: string, userId: string, now: Date) =>
      db.write(async (q) => {
        // Typed casts: PostgreSQL cannot type a bare parameter in a select list.
        const row = q
          .select({ reportId: reports.id, userId: sql<string>`cast(${userId} as text)`.as('user_id'), createdAt: sql<number>`cast(${now.getTime()} as bigint)`.as('created_at') })
          .from(reports)
          .where(eq(reports.id, reportId))
        await q.insert(reportSubscriptions).select(row).onConflictDoNothing()
      }),
  }
}
