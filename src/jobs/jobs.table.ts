import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { createdAt, json, timestamp, updatedAt } from '../db/columns'

export type JobStatus = 'pending' | 'running' | 'done' | 'failed'

/** Work that leaves a request: written in the same transaction as its cause, drained by the runner. */
export const jobs = sqliteTable(
  'jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    payload: json<unknown>('payload').notNull(),
    status: text('status', { enum: ['pending', 'running', 'done', 'failed'] }).notNull().default('pending'),
    runAt: timestamp('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at'),
    lastError: text('last_error'),
    /** Enqueueing the same key twice makes one job. */
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Partial: most jobs have no key and then cost no entry in this index.
    uniqueIndex('jobs_idempotency_unique').on(t.idempotencyKey).where(sql`${t.idempotencyKey} IS NOT NULL`),
    index('jobs_due_idx').on(t.status, t.runAt),
    index('jobs_lease_idx').on(t.status, t.leaseExpiresAt),
  ],
)
