import { and, asc, count, eq, inArray, isNotNull, ne, or, type Placeholder, sql } from 'drizzle-orm'
import { preparedPerConnection, type Query, rowsOf, type Seam } from '../../db/client'
import { accountMembers, accounts } from './accounts.table'

export type Account = typeof accounts.$inferSelect
export type Membership = typeof accountMembers.$inferSelect
export type AccountRole = Membership['role']
type AccountChanges = Partial<Pick<typeof accounts.$inferInsert, 'name' | 'plan' | 'stripeCustomerId' | 'stripeSubscriptionId' | 'updatedAt'>>
type MembershipChanges = Partial<Pick<Membership, 'role' | 'projectIds' | 'permissionOverrides'>>

const membershipWhere = (accountId: string | Placeholder, userId: string | Placeholder) => and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId))

// The request guard's lookups, on every project route: prepared once per connection (a one-time
// query rebuilds its SQL from the builder each time, ~20 µs).
const accountById = preparedPerConnection((q: Query) => q.select().from(accounts).where(eq(accounts.id, sql.placeholder('id'))).limit(1).prepare())
const membershipOf = preparedPerConnection((q: Query) =>
  q.select().from(accountMembers).where(membershipWhere(sql.placeholder('accountId'), sql.placeholder('userId'))).limit(1).prepare(),
)

/** Every read and write of accounts and account_members, as async functions over the database seam. */
export function createAccountsRepository({ db }: { db: Seam }) {
  return {
    /** The account, or undefined. */
    byId: async (id: string): Promise<Account | undefined> => (await db.read((q) => accountById(q).execute({ id })))[0],

    /** The id of the account a Stripe customer pays for, or null. */
    idOfCustomer: async (customerId: string): Promise<string | null> =>
      (await db.read((q) => q.select({ id: accounts.id }).from(accounts).where(eq(accounts.stripeCustomerId, customerId)).limit(1)))[0]?.id ?? null,

    /** The oldest account the user owns, or undefined. */
    firstOwnedBy: async (userId: string): Promise<Account | undefined> =>
      (await db.read((q) => q.select().from(accounts).where(eq(accounts.ownerId, userId)).orderBy(asc(accounts.createdAt)).limit(1)))[0],

    /** Creates an account with `ownerId` as its owner member. */
    createOwned: (a: { id: string; name: string; ownerId: string; plan: Account['plan']; now: Date }) =>
      db.write(async (q) => {
        await q.insert(accounts).values({ id: a.id, name: a.name, ownerId: a.ownerId, plan: a.plan, createdAt: a.now, updatedAt: a.now })
        await q.insert(accountMembers).values({ accountId: a.id, userId: a.ownerId, role: 'owner', createdAt: a.now })
      }),

    /** Changes an account's name, plan or Stripe ids. */
    update: (id: string, changes: AccountChanges) => db.write((q) => q.update(accounts).set(changes).where(eq(accounts.id, id))),

    /**
     * The account a user works in with their membership: `currentAccountId` when they are a member of
     * it, or else one they own (a user removed from their current account falls back to their own).
     */
    workingAccount: async (userId: string, currentAccountId: string | null): Promise<{ account: Account; membership: Membership } | undefined> => {
      const rows = await db.read((q) =>
        q
          .select({ account: accounts, membership: accountMembers })
          .from(accountMembers)
          .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
          .where(and(eq(accountMembers.userId, userId), or(currentAccountId ? eq(accountMembers.accountId, currentAccountId) : undefined, eq(accountMembers.role, 'owner'))))
          .orderBy(asc(accountMembers.createdAt)),
      )
      return rows.find((r) => r.account.id === currentAccountId) ?? rows[0]
    },

    /** The id of an account the user owns, or undefined. */
    ownedAccountId: async (userId: string): Promise<string | undefined> =>
      (await db.read((q) => q.select({ id: accountMembers.accountId }).from(accountMembers).where(and(eq(accountMembers.userId, userId), eq(accountMembers.role, 'owner'))).limit(1)))[0]?.id,

    /** The membership of `userId` in the account, or undefined. */
    membership: async (accountId: string, userId: string): Promise<Membership | undefined> =>
      (await db.read((q) => membershipOf(q).execute({ accountId, userId })))[0],

    /** The account's memberships, oldest first. */
    members: (accountId: string): Promise<Membership[]> =>
      db.read((q) => q.select().from(accountMembers).where(eq(accountMembers.accountId, accountId)).orderBy(asc(accountMembers.createdAt))),

    /** The account's memberships limited to chosen projects. */
    limitedMembers: (accountId: string) =>
      db.read((q) => q.select({ userId: accountMembers.userId, projectIds: accountMembers.projectIds }).from(accountMembers).where(and(eq(accountMembers.accountId, accountId), isNotNull(accountMembers.projectIds)))),

    /** Ids of the account's owner and admins. */
    managerIds: async (accountId: string): Promise<string[]> =>
      (await db.read((q) => q.select({ id: accountMembers.userId }).from(accountMembers).where(and(eq(accountMembers.accountId, accountId), inArray(accountMembers.role, ['owner', 'admin']))))).map((m) => m.id),

    /** How many members the account has. */
    memberCount: async (accountId: string): Promise<number> => (await db.read((q) => q.select({ n: count() }).from(accountMembers).where(eq(accountMembers.accountId, accountId))))[0]!.n,

    /** Adds a membership. */
    addMember: (row: typeof accountMembers.$inferInsert) => db.write((q) => q.insert(accountMembers).values(row)),

    /** Changes a membership's role, project access or permission overrides. */
    updateMember: (accountId: string, userId: string, changes: MembershipChanges) => db.write((q) => q.update(accountMembers).set(changes).where(membershipWhere(accountId, userId))),

    /** Removes a membership. */
    removeMember: (accountId: string, userId: string) => db.write((q) => q.delete(accountMembers).where(membershipWhere(accountId, userId))),

    /** The user's memberships with their account's name and plan, oldest first (a personal data export). */
    membershipsOf: (userId: string) =>
      db.read((q) =>
        q
          .select({ id: accounts.id, name: accounts.name, plan: accounts.plan, role: accountMembers.role, projectIds: accountMembers.projectIds, joinedAt: accountMembers.createdAt })
          .from(accountMembers)
          .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
          .where(eq(accountMembers.userId, userId))
          .orderBy(asc(accountMembers.createdAt)),
      ),

    /** Every account's id. */
    allIds: async (): Promise<string[]> => (await db.read((q) => q.select({ id: accounts.id }).from(accounts))).map((a) => a.id),

    /** Takes `bytes` off the account's stored-bytes counter (a null counter, not counted yet, stays null). */
    subtractStorageBytes: (accountId: string, bytes: number) => db.write((q) => q.update(accounts).set({ storageBytes: sql`${accounts.storageBytes} - ${bytes}` }).where(eq(accounts.id, accountId))),


    /**
     * Bytes of the account's stored files (accounts.service.ts says which): its counter, or, when the
     * counter is null, the files counted and stored in one write. 0 for an unknown account.
     */
    storageBytes: async (accountId: string): Promise<number> => {
      const stored = (await db.read((q) => q.select({ n: accounts.storageBytes }).from(accounts).where(eq(accounts.id, accountId)).limit(1)))[0]
      if (!stored) return 0
      if (stored.n !== null) return stored.n
      return db.write(async (q) => {
        const projectIds = sql`SELECT id FROM projects WHERE account_id = ${accountId}`
        // A widget background is a file of ours when its URL points at /api/files/{key}: read in code,
        // as the JSON and string functions that would say it in SQL differ between the engines.
        const widgets = await rowsOf<{ value: string }>(q, sql`SELECT value FROM project_settings WHERE kind = 'widget' AND project_id IN (${projectIds})`)
        const backgrounds = widgets.flatMap((w) => {
          const url = (JSON.parse(w.value) as { background_image_url?: unknown }).background_image_url
          return typeof url === 'string' && url.includes('/api/files/') ? [url.slice(url.indexOf('/api/files/') + '/api/files/'.length)] : []
        })
        const backgroundKeys = backgrounds.length ? sql` UNION SELECT column1 FROM (VALUES ${sql.join(backgrounds.map((k) => sql`(${k})`), sql`, `)}) AS b` : sql``
        const counted = await rowsOf<{ storage_bytes: number | string }>(
          q,
          sql`UPDATE accounts SET storage_bytes = (
              SELECT coalesce(sum(f.size), 0) FROM files f WHERE f.key IN (
                SELECT r.screenshot_key FROM reports r WHERE r.project_id IN (${projectIds}) AND r.screenshot_key IS NOT NULL
                UNION SELECT o.screenshot_key FROM report_occurrences o WHERE o.project_id IN (${projectIds}) AND o.screenshot_key IS NOT NULL
                UNION SELECT a.file_key FROM attachments a WHERE a.project_id IN (${projectIds})
                UNION SELECT s.file_key FROM session_replays s WHERE s.project_id IN (${projectIds})${backgroundKeys}))
            WHERE id = ${accountId} AND storage_bytes IS NULL
            RETURNING storage_bytes`,
        )
        // None: another write counted it first; its count stands. (PostgreSQL answers a bigint sum as a string.)
        if (counted[0]) return Number(counted[0].storage_bytes)
        return (await q.select({ n: accounts.storageBytes }).from(accounts).where(eq(accounts.id, accountId)).limit(1))[0]?.n ?? 0
      })
    },

    /** Forgets the account's stored-bytes counter; the next `storageBytes` counts again. */
    forgetStorageBytes: (accountId: string) => db.write((q) => q.update(accounts).set({ storageBytes: null }).where(eq(accounts.id, accountId))),

    /** The accounts the user owns. */
    ownedBy: (userId: string) => db.read((q) => q.select().from(accounts).where(eq(accounts.ownerId, userId))),

    /** How many members other than `userId` these accounts have. */
    otherMembersCount: async (accountIds: string[], userId: string): Promise<number> =>
      accountIds.length ? (await db.read((q) => q.select({ n: count() }).from(accountMembers).where(and(inArray(accountMembers.accountId, accountIds), ne(accountMembers.userId, userId)))))[0]!.n : 0,

    /** Deletes these accounts; foreign keys take their projects, memberships and everything hanging off them. */
    removeMany: (accountIds: string[]) => (accountIds.length ? db.write((q) => q.delete(accounts).where(inArray(accounts.id, accountIds))) : Promise.resolve()),
  }
}

/** The plan and upload bytes used of an account, on the caller's write (the upload paths charge inside it). */
export async function uploadUsageOf(q: Query, accountId: string): Promise<{ plan: Account['plan']; used: number } | undefined> {
  return (await q.select({ plan: accounts.plan, used: accounts.uploadBytesUsed }).from(accounts).where(eq(accounts.id, accountId)).limit(1))[0]
}

/** Adds `bytes` to the account's upload counter and stored bytes, on the caller's write (see uploadUsageOf). */
export async function addUploadBytes(q: Query, accountId: string, bytes: number): Promise<void> {
  // storage_bytes stays null (not counted yet) until it is first read, which counts it.
  await q
    .update(accounts)
    .set({ uploadBytesUsed: sql`${accounts.uploadBytesUsed} + ${bytes}`, storageBytes: sql`${accounts.storageBytes} + ${bytes}` })
    .where(eq(accounts.id, accountId))
}
