import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt } from '../../db/columns'
import { projects } from '../projects/projects.table'
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

/** Server-side secrets created once on first use (server-secrets.ts: vote hashing and voter cookies, reply-mail unsubscribe links). */
export const serverSecrets = sqliteTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
})

/**
 * Players who asked for no more reply mails from a project (the unsubscribe link of a reply mail,
 * which needs no account). Keyed by the address in lower case.
 */
export const replyMailOptOuts = sqliteTable(
  'reply_mail_opt_outs',
  {
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.email] })],
)
