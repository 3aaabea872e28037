import { eq } from 'drizzle-orm'
import type { DbOrTx, Seam } from '../db/client'
import { mailOutbox } from './mail.table'

/**
 * Records a mail in the outbox on the caller's transaction and returns its id (synchronous: every
 * domain sends mail inside its own write, so the mail and its job commit with their cause).
 */
export function insertOutboxMail(tx: DbOrTx, row: typeof mailOutbox.$inferInsert): number {
  return tx.insert(mailOutbox).values(row).returning({ id: mailOutbox.id }).all()[0]!.id
}

/** The outbox's reads and writes for delivery, as async functions over the database seam. */
export function createMailRepository({ db }: { db: Seam }) {
  return {
    /** One outbox mail, or undefined. */
    find: async (id: number): Promise<typeof mailOutbox.$inferSelect | undefined> => (await db.read((q) => q.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1)))[0],

    markSent: (id: number, at: Date) => db.write((q) => q.update(mailOutbox).set({ status: 'sent', sentAt: at }).where(eq(mailOutbox.id, id))),
  }
}
