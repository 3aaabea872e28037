import { and, asc, eq, gt, isNotNull, isNull } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { invitations } from './team.table'

export type Invitation = typeof invitations.$inferSelect

/** Invitations neither accepted, revoked nor expired at `now`. */
const pendingWhere = (accountId: string, now: Date) => and(eq(invitations.accountId, accountId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now))

/** Every read and write of invitations, as async functions over the database seam. */
export function createTeamRepository({ db }: { db: Seam }) {
  return {
    /** The account's pending invitations, oldest first. */
    pending: (accountId: string, now: Date): Promise<Invitation[]> => db.read((q) => q.select().from(invitations).where(pendingWhere(accountId, now)).orderBy(asc(invitations.createdAt))),

    /** Whether `email` has a pending invitation to the account. */
    pendingFor: async (accountId: string, email: string, now: Date): Promise<boolean> =>
      (await db.read((q) => q.select({ id: invitations.id }).from(invitations).where(and(pendingWhere(accountId, now), eq(invitations.email, email))).limit(1))).length > 0,

    /** The invitation whose token has this hash, or undefined. */
    byTokenHash: async (tokenHash: string): Promise<Invitation | undefined> => (await db.read((q) => q.select().from(invitations).where(eq(invitations.tokenHash, tokenHash)).limit(1)))[0],

    /** The account's invitation with this id, or undefined. */
    inAccount: async (accountId: string, id: string): Promise<Invitation | undefined> =>
      (await db.read((q) => q.select().from(invitations).where(and(eq(invitations.id, id), eq(invitations.accountId, accountId))).limit(1)))[0],

    /** The account's invitations limited to chosen projects. */
    limited: (accountId: string) =>
      db.read((q) => q.select({ id: invitations.id, projectIds: invitations.projectIds }).from(invitations).where(and(eq(invitations.accountId, accountId), isNotNull(invitations.projectIds)))),

    /** Stores a new invitation. */
    insert: (row: typeof invitations.$inferInsert) => db.write((q) => q.insert(invitations).values(row)),

    /** Marks the invitation accepted; false when it was accepted already (of two concurrent accepts, one wins). */
    claim: async (id: string, userId: string, now: Date): Promise<boolean> =>
      (await db.write((q) => q.update(invitations).set({ acceptedAt: now, acceptedBy: userId }).where(and(eq(invitations.id, id), isNull(invitations.acceptedAt))).returning({ id: invitations.id }))).length > 0,

    /** Marks the invitation revoked. */
    revoke: (id: string, now: Date) => db.write((q) => q.update(invitations).set({ revokedAt: now }).where(eq(invitations.id, id))),

    /** Sets the projects the invitee will be limited to. */
    setProjectIds: (id: string, projectIds: string[]) => db.write((q) => q.update(invitations).set({ projectIds }).where(eq(invitations.id, id))),
  }
}
