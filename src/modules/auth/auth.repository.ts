import { and, count, desc, eq, gt, inArray, isNull, lte, ne, Param, sql } from 'drizzle-orm'
import { preparedPerConnection, type Query, type Seam } from '../../db/client'
import { emailVerifications, loginFailures, loginLockouts, passwordResets, sessions, supportShareCodes, users } from './auth.table'

type UserRow = typeof users.$inferSelect
type UserChanges = Partial<Pick<typeof users.$inferInsert, 'passwordHash' | 'emailVerified' | 'googleSub' | 'appleSub' | 'displayName' | 'avatarUrl' | 'theme' | 'role' | 'updatedAt'>>
/** The tables of single-use mailed tokens (verification links and password resets): the same columns. */
type TokenTable = typeof emailVerifications | typeof passwordResets
type TokenRow = typeof emailVerifications.$inferSelect

const normalEmail = (email: string) => email.trim().toLowerCase()

/**
 * The user behind a live session token: the first lookup of every signed-in request, prepared once per
 * connection (a one-time query rebuilds its SQL each time). `now` is bound through the column's
 * encoder, as a Date compared in place would be.
 */
const sessionUserOf = preparedPerConnection((q: Query) =>
  q
    .select({ user: users, sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, new Param(sql.placeholder('now'), sessions.expiresAt))))
    .limit(1)
    .prepare(),
)

/** Reads and writes of the accounts of people (users), their sessions and mailed tokens, as async functions over the database seam. */
export function createAuthRepository({ db }: { db: Seam }) {
  const userWhere = async (where: ReturnType<typeof eq>): Promise<UserRow | undefined> => {
    const [row] = await db.read((q) => q.select().from(users).where(where).limit(1))
    return row
  }
  /** Mailed tokens of a user: single use, so a new one or a use retires the others. */
  const tokens = (table: TokenTable) => ({
    /** The token with this hash, or undefined. */
    byHash: async (tokenHash: string): Promise<TokenRow | undefined> => {
      const [row] = await db.read((q) => q.select().from(table).where(eq(table.tokenHash, tokenHash)).limit(1))
      return row
    },
    /** Whether the user was sent one after `since`. */
    sentSince: async (userId: string, since: Date): Promise<boolean> =>
      (await db.read((q) => q.select({ id: table.id }).from(table).where(and(eq(table.userId, userId), gt(table.createdAt, since))).orderBy(desc(table.createdAt)).limit(1))).length > 0,
    insert: (row: typeof emailVerifications.$inferInsert) => db.write((q) => q.insert(table).values(row)),
    /** Uses up every pending token of the user. */
    useAll: (userId: string, now: Date) => db.write((q) => q.update(table).set({ usedAt: now }).where(and(eq(table.userId, userId), isNull(table.usedAt)))),
  })
  return {
    /** The name to show for each user id (display name, else name); ids of deleted users are missing. */
    namesOf: async (ids: string[]): Promise<Map<string, string>> => {
      const unique = [...new Set(ids)]
      if (unique.length === 0) return new Map()
      const rows = await db.read((q) => q.select({ id: users.id, name: users.name, displayName: users.displayName }).from(users).where(inArray(users.id, unique)))
      return new Map(rows.map((u) => [u.id, u.displayName ?? u.name]))
    },

    /** The user with this email (case and surrounding spaces aside), or undefined. */
    userByEmail: (email: string) => userWhere(eq(users.email, normalEmail(email))),

    userById: (id: string) => userWhere(eq(users.id, id)),

    /** The user linked to a Google or Apple subject, or undefined. */
    userBySubject: (provider: 'google' | 'apple', sub: string) => userWhere(eq(provider === 'google' ? users.googleSub : users.appleSub, sub)),

    /** Whether the server has any user yet. */
    anyUser: async (): Promise<boolean> => (await db.read((q) => q.select({ id: users.id }).from(users).limit(1))).length > 0,

    /** Changes a user; the row as it is now, or undefined when there is none. */
    updateUser: async (id: string, changes: UserChanges): Promise<UserRow | undefined> => {
      const [row] = await db.write((q) => q.update(users).set(changes).where(eq(users.id, id)).returning())
      return row
    },

    /** Deletes a user; their sessions, memberships and tokens go with the row (foreign keys). */
    removeUser: (id: string) => db.write((q) => q.delete(users).where(eq(users.id, id))),

    /** The user and session id behind a live session token hash, or undefined. */
    sessionUser: async (tokenHash: string, now: Date): Promise<{ user: UserRow; sessionId: string } | undefined> => {
      const [row] = await db.read((q) => sessionUserOf(q).execute({ tokenHash, now }))
      return row
    },

    removeSession: (sessionId: string) => db.write((q) => q.delete(sessions).where(eq(sessions.id, sessionId))),

    /** Deletes every session of a user except `keepSessionId` (all of them when it is omitted). */
    removeUserSessions: (userId: string, keepSessionId?: string) => {
      const mine = eq(sessions.userId, userId)
      return db.write((q) => q.delete(sessions).where(keepSessionId ? and(mine, ne(sessions.id, keepSessionId)) : mine))
    },

    /** Deletes sessions, verification tokens and support share codes past their expiry. */
    pruneExpired: (now: Date) =>
      db.write(async (q) => {
        await q.delete(sessions).where(lte(sessions.expiresAt, now))
        await q.delete(emailVerifications).where(lte(emailVerifications.expiresAt, now))
        await q.delete(supportShareCodes).where(lte(supportShareCodes.expiresAt, now))
      }),

    verifications: tokens(emailVerifications),

    resets: tokens(passwordResets),

    /** Keeps the hash of the user's support share code, replacing their previous one. */
    saveShareCode: (userId: string, code: { codeHash: string; createdAt: Date; expiresAt: Date }) =>
      db.write((q) => q.insert(supportShareCodes).values({ userId, ...code }).onConflictDoUpdate({ target: supportShareCodes.userId, set: code })),

    removeShareCode: (userId: string) => db.write((q) => q.delete(supportShareCodes).where(eq(supportShareCodes.userId, userId))),

    /** The user a live share code (by hash) was issued to, or undefined. */
    shareCodeUser: async (codeHash: string, now: Date): Promise<{ userId: string; email: string; expiresAt: Date } | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select({ userId: users.id, email: users.email, expiresAt: supportShareCodes.expiresAt })
          .from(supportShareCodes)
          .innerJoin(users, eq(users.id, supportShareCodes.userId))
          .where(and(eq(supportShareCodes.codeHash, codeHash), gt(supportShareCodes.expiresAt, now)))
          .limit(1),
      )
      return row
    },

    /** Until when password sign-in for the throttle key is paused, or undefined. */
    lockedUntil: async (key: string): Promise<Date | undefined> => {
      const [row] = await db.read((q) => q.select({ until: loginLockouts.lockedUntil }).from(loginLockouts).where(eq(loginLockouts.accountKey, key)).limit(1))
      return row?.until
    },

    /** Records a failed password check for the key, forgetting its failures before `since`; how many remain. */
    addFailure: (key: string, now: Date, since: Date): Promise<number> =>
      db.write(async (q) => {
        await q.delete(loginFailures).where(and(eq(loginFailures.accountKey, key), lte(loginFailures.failedAt, since)))
        await q.insert(loginFailures).values({ accountKey: key, failedAt: now })
        const [row] = await q.select({ n: count() }).from(loginFailures).where(eq(loginFailures.accountKey, key))
        return row!.n
      }),

    clearFailures: (key: string) => db.write((q) => q.delete(loginFailures).where(eq(loginFailures.accountKey, key))),

    /** Pauses password sign-in for the key until `until`; the failures that led there are spent. */
    lock: (key: string, until: Date) =>
      db.write(async (q) => {
        await q.delete(loginFailures).where(eq(loginFailures.accountKey, key))
        await q.insert(loginLockouts).values({ accountKey: key, lockedUntil: until }).onConflictDoUpdate({ target: loginLockouts.accountKey, set: { lockedUntil: until } })
      }),

    /** Ends the key's lockout and forgets its failures. */
    clearThrottle: (key: string) =>
      db.write(async (q) => {
        await q.delete(loginFailures).where(eq(loginFailures.accountKey, key))
        await q.delete(loginLockouts).where(eq(loginLockouts.accountKey, key))
      }),

    /** Drops failures from before `failedBefore` and lockouts that ended by `now`. */
    pruneThrottle: (failedBefore: Date, now: Date) =>
      db.write(async (q) => {
        await q.delete(loginFailures).where(lte(loginFailures.failedAt, failedBefore))
        await q.delete(loginLockouts).where(lte(loginLockouts.lockedUntil, now))
      }),

    /** Deletes the user's verification tokens. */
    dropVerifications: (userId: string) => db.write((q) => q.delete(emailVerifications).where(eq(emailVerifications.userId, userId))),

    /** The name players see for each user id: the display name unless blank, else the name; ids of deleted users are missing. */
    publicNamesOf: async (ids: string[]): Promise<Map<string, string>> => {
      const unique = [...new Set(ids)]
      if (unique.length === 0) return new Map()
      const rows = await db.read((q) => q.select({ id: users.id, name: users.name, displayName: users.displayName }).from(users).where(inArray(users.id, unique)))
      return new Map(rows.map((u) => [u.id, u.displayName || u.name]))
    },

    /** Inserts a user; the row as stored. */
    insertUser: async (row: typeof users.$inferInsert): Promise<UserRow> => (await db.write((q) => q.insert(users).values(row).returning()))[0]!,

    /** Makes `accountId` the account the user works in. */
    setCurrentAccount: (userId: string, accountId: string, now: Date) => db.write((q) => q.update(users).set({ currentAccountId: accountId, updatedAt: now }).where(eq(users.id, userId))),

    /** Email, name and display name (null: none chosen) of each user id; ids of deleted users are missing. */
    contactsOf: async (ids: string[]): Promise<Map<string, { email: string; name: string; displayName: string | null }>> => {
      const unique = [...new Set(ids)]
      if (unique.length === 0) return new Map()
      const rows = await db.read((q) => q.select({ id: users.id, email: users.email, name: users.name, displayName: users.displayName }).from(users).where(inArray(users.id, unique)))
      return new Map(rows.map((u) => [u.id, { email: u.email, name: u.name, displayName: u.displayName }]))
    },

    /** Stores a new session (its token only as a hash). */
    insertSession: (row: typeof sessions.$inferInsert) => db.write(async (q) => void (await q.insert(sessions).values(row))),
  }
}
