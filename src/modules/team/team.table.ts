import { index, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { createdAt, json, timestamp } from '../../db/columns'
import { accounts } from '../auth/accounts.table'
import { users } from '../auth/auth.table'

/** Invitations to join an account; the token is mailed and only its hash is kept. */
export const invitations = sqliteTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    /** Stored lower-cased: matched case-insensitively against the accepting user's email. */
    email: text('email').notNull(),
    role: text('role', { enum: ['admin', 'member'] }).notNull(),
    /** The projects the invitee will be limited to; null: every project. */
    projectIds: json<string[]>('project_ids'),
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at').notNull(),
    acceptedAt: timestamp('accepted_at'),
    acceptedBy: text('accepted_by'),
    revokedAt: timestamp('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('invitations_token_hash_unique').on(t.tokenHash), index('invitations_account_idx').on(t.accountId, t.email)],
)
