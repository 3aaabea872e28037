import { integer, primaryKey, sqliteTable, text, index } from 'drizzle-orm/sqlite-core'
import { createdAt, int64, json, updatedAt } from '../../db/columns'
import { users } from './auth.table'

export type AccountRole = 'owner' | 'admin' | 'member'

/** A team account: owns projects, members and the plan. */
export const accounts = sqliteTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ownerId: text('owner_id').notNull().references(() => users.id),
  plan: text('plan', { enum: ['free', 'pro', 'studio', 'self_hosted'] }).notNull(),
  /** Monotonic usage counters: deleting reports or projects never gives quota back. */
  reportsCreated: integer('reports_created').notNull().default(0),
  uploadBytesUsed: int64('upload_bytes_used').notNull().default(0),
  /** Bytes of the account's files stored now; null until first read (then counted once, see accounts.service.ts). */
  storageBytes: int64('storage_bytes'),
  stripeCustomerId: text('stripe_customer_id'),
  stripeSubscriptionId: text('stripe_subscription_id'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

export const accountMembers = sqliteTable(
  'account_members',
  {
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'admin', 'member'] }).notNull(),
    /** Per-member permission overrides: key → granted. Empty: role defaults. */
    permissionOverrides: json<Record<string, boolean>>('permission_overrides').notNull().default({}),
    /** The projects a member is limited to; null: every project of the account (see project-access.ts). */
    projectIds: json<string[]>('project_ids'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.userId] }), index('account_members_user_idx').on(t.userId)],
)
