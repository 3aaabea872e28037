import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, timestamp } from '../../db/columns'

/** Maintenance banners set by the operator from the CLI; the newest unexpired one is in effect. */
export const maintenanceBanners = sqliteTable('maintenance_banners', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  message: text('message').notNull(),
  endsAt: timestamp('ends_at'),
  clearedAt: timestamp('cleared_at'),
  createdAt: createdAt(),
})
