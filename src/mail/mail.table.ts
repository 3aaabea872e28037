import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, timestamp } from '../db/columns'

/** Every mail the server sends; with no SMTP configured this is where mail waits to be read. */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** `queued` until sent over SMTP, `kept` when there is no SMTP server. */
    status: text('status', { enum: ['queued', 'sent', 'kept'] }).notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at'),
  },
  (t) => [index('mail_outbox_to_idx').on(t.to)],
)
