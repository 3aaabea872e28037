import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, int64 } from '../db/columns'

/** Metadata of every stored blob; the bytes live under `<data>/files/`. */
export const files = sqliteTable('files', {
  key: text('key').primaryKey(),
  mimeType: text('mime_type').notNull(),
  size: int64('size').notNull(),
  fileName: text('file_name').notNull(),
  createdAt: createdAt(),
})
