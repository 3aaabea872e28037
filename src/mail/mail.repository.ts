import { eq } from 'drizzle-orm'
import type { Seam } from '../db/client'
import { mailOutbox } from './mail.table'

/** The outbox's reads and writes, as async functions over the database seam. */
export function createMailRepository({ db }: { db: Seam }) {
  return {
    /** One outbox mail, or undefined. */
    find: async (id: number): Promise<typeof mailOutbox.$inferSelect | undefined> => (await db.read((q) => q.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1)))[0],

    /** Marks an outbox mail sent. */
    markSent: (id: number, at: Date) => db.write((q) => q.update(mailOutbox).set({ status: 'sent', sentAt: at }).where(eq(mailOutbox.id, id))),

    /** Records a mail in the outbox and returns its id; inside a write it joins it, so the mail commits with its cause. */
    insert: async (row: typeof mailOutbox.$inferInsert): Promise<number> => (await db.write((q) => q.insert(mailOutbox).values(row).returning({ id: mailOutbox.id })))[0]!.id,
  }
}
