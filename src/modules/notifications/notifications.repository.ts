import { and, asc, count, desc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { accountMembers, accounts } from '../accounts/accounts.table'
import { users } from '../auth/auth.table'
import { reports } from '../reports/reports.table'
import { PREFERENCES, type PreferenceKey } from './notifications.schemas'
import { notificationFanouts, notificationKeys, notificationPreferences, reportSubscriptions } from './notifications.table'

type PreferenceColumns = Partial<Record<(typeof PREFERENCES)[PreferenceKey], boolean>>

/**
 * Every read and write of the notification tables (preferences, followers, sent fan-outs, the
 * signing key), and the reports, members and accounts that mails are about or go to, over the database seam.
 */
export function createNotificationsRepository({ db }: { db: Seam }) {
  const keyRow = async () => (await db.read((q) => q.select({ key: notificationKeys.key }).from(notificationKeys).where(eq(notificationKeys.id, 1)).limit(1)))[0]
  /** Reports of `projectIds` not deleted. */
  const live = (projectIds: string[]) => and(inArray(reports.projectId, projectIds), isNull(reports.deletedAt))
  /** The project's reports game clients (no team member) filed in [from, to). */
  const gameFiled = (projectId: string, from: Date, to: Date) =>
    and(eq(reports.projectId, projectId), isNull(reports.createdBy), isNull(reports.deletedAt), gte(reports.createdAt, from), lt(reports.createdAt, to))
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

    /**
     * The members of the account among `userIds` (all: every one) with their access, role and their
     * choice for `preference` (null: no preferences row).
     */
    members: (accountId: string, userIds: string[] | 'all', preference: PreferenceKey) =>
      db.read((q) =>
        q
          .select({
            id: users.id,
            email: users.email,
            name: users.name,
            displayName: users.displayName,
            projectIds: accountMembers.projectIds,
            role: accountMembers.role,
            overrides: accountMembers.permissionOverrides,
            pref: notificationPreferences[PREFERENCES[preference]],
          })
          .from(accountMembers)
          .innerJoin(users, eq(users.id, accountMembers.userId))
          .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
          .where(and(eq(accountMembers.accountId, accountId), userIds === 'all' ? undefined : inArray(users.id, userIds))),
      ),

    /** Every account's id (the weekly digest goes to each). */
    accountIds: async (): Promise<string[]> => (await db.read((q) => q.select({ id: accounts.id }).from(accounts))).map((a) => a.id),

    /** The report a mail is about, or undefined. */
    report: async (id: string) => (await db.read((q) => q.select().from(reports).where(eq(reports.id, id)).limit(1)))[0],

    /** Per project of `projectIds`: reports filed and resolved in [start, end), and open now. */
    weekCounts: (projectIds: string[], start: Date, end: Date) =>
      db.read((q) =>
        q
          .select({
            projectId: reports.projectId,
            created: sql<number>`sum(${reports.createdAt} >= ${start.getTime()} and ${reports.createdAt} < ${end.getTime()})`,
            resolved: sql<number>`sum(${reports.status} in ('resolved', 'closed') and ${reports.updatedAt} >= ${start.getTime()} and ${reports.updatedAt} < ${end.getTime()})`,
            open: sql<number>`sum(${reports.status} in ('open', 'in_progress'))`,
          })
          .from(reports)
          .where(live(projectIds))
          .groupBy(reports.projectId),
      ),

    /** The `limit` open reports of `projectIds` filed before `end` with the highest priority, newest first on ties. */
    topOpen: (projectIds: string[], end: Date, limit: number) =>
      db.read((q) =>
        q
          .select({ projectId: reports.projectId, number: reports.reportNumber, title: reports.title, priority: reports.priority, status: reports.status })
          .from(reports)
          .where(and(live(projectIds), inArray(reports.status, ['open', 'in_progress']), lt(reports.createdAt, end)))
          .orderBy(asc(reports.priorityRank), desc(reports.createdAt))
          .limit(limit),
      ),

    /** The first `limit` reports (by number) game clients filed in the project in [from, to), and how many there are. */
    gameFiledIn: (projectId: string, from: Date, to: Date, limit: number) =>
      db.read(async (q) => {
        const listed = await q.select().from(reports).where(gameFiled(projectId, from, to)).orderBy(asc(reports.reportNumber)).limit(limit)
        if (listed.length === 0) return { listed, total: 0 }
        const [counted] = await q.select({ total: count() }).from(reports).where(gameFiled(projectId, from, to))
        return { listed, total: counted!.total }
      }),
  }
}
