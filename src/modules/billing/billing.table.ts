import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, timestamp, updatedAt } from '../../db/columns'
import { accounts } from '../auth/accounts.table'

/** The Stripe subscription state of an account, as last seen in a webhook or verified session. */
export const billingSubscriptions = sqliteTable('billing_subscriptions', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  subscriptionId: text('subscription_id'),
  status: text('status').notNull(),
  priceId: text('price_id'),
  currentPeriodEnd: timestamp('current_period_end'),
  cancelAtPeriodEnd: bool('cancel_at_period_end').notNull().default(false),
  /** A downgrade the customer scheduled for the end of the period (free or pro), applied when it ends. */
  pendingPlan: text('pending_plan', { enum: ['free', 'pro'] }),
  pendingEffectiveAt: timestamp('pending_effective_at'),
  updatedAt: updatedAt(),
})

/** Stripe event ids already applied, so a re-delivered webhook changes nothing. */
export const billingEvents = sqliteTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  createdAt: createdAt(),
})
