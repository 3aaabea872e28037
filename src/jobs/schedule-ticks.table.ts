import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamp } from '../db/columns'

/**
 * The last tick of each schedule that some node took: every node's timer fires at the tick, and the
 * one whose compare-and-set moves `tick` forward runs it (jobs.repository.ts `leaseTick`), so a
 * schedule runs once per tick across nodes sharing the database.
 */
export const scheduleTicks = sqliteTable('schedule_ticks', {
  name: text('name').primaryKey(),
  tick: timestamp('tick').notNull(),
  /** The runner that took it (jobs/lease-owner.ts), for an operator reading the table. */
  owner: text('owner').notNull(),
})
