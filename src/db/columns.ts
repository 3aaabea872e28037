import { integer, text } from 'drizzle-orm/sqlite-core'

/** Timestamps are stored as epoch milliseconds and read as Date. */
export const timestamp = (name: string) => integer(name, { mode: 'timestamp_ms' })
export const bool = (name: string) => integer(name, { mode: 'boolean' })
export const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>()
/** `created_at` / `updated_at` that every row carries; values come from the injected clock. */
export const createdAt = () => timestamp('created_at').notNull()
export const updatedAt = () => timestamp('updated_at').notNull()
