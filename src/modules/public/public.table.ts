import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt } from '../../db/columns'
import { reports } from '../reports/reports.table'

/**
 * One row per (report, voter). The voter key is an HMAC of the player id or client IP under a
 * server secret, so neither raw addresses nor player ids are stored; the primary key makes votes idempotent.
 */
export const reportVotes = sqliteTable(
  'report_votes',
  {
    reportSeq: integer('report_seq').notNull().references(() => reports.seq, { onDelete: 'cascade' }),
    voterKey: text('voter_key').notNull(),
    /** A player-id vote's client address (its /64 for IPv6), HMAC'd like the voter: an address adds few player votes a day. */
    addressKey: text('address_key'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.reportSeq, t.voterKey] }), index('report_votes_address_idx').on(t.reportSeq, t.addressKey, t.createdAt)],
)

/** Server-side secrets created once on first use (the vote-hashing key). */
export const serverSecrets = sqliteTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
})
