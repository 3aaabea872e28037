import { customType, integer, text } from 'drizzle-orm/sqlite-core'

// Columns whose values need more than 32 bits are declared here rather than with a bare `integer`:
// PostgreSQL stores them as `bigint`, which its client returns as a string, so they convert with
// `Number` on the way out (scripts/db/pg-schema.ts maps each to its PostgreSQL type by `dataType`).

/** Timestamps are stored as epoch milliseconds and read as Date. */
export const timestamp = customType<{ data: Date; driverData: number | string }>({
  dataType: () => 'integer',
  toDriver: (value) => value.getTime(),
  fromDriver: (value) => new Date(Number(value)),
})
/** An integer that may pass 32 bits (byte counts, epoch milliseconds kept as numbers), read as a number on either engine. */
export const int64 = customType<{ data: number; driverData: number | string }>({
  dataType: () => 'integer',
  toDriver: (value) => value,
  fromDriver: (value) => Number(value),
})
export const bool = (name: string) => integer(name, { mode: 'boolean' })
export const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>()
/** `created_at` / `updated_at` that every row carries; values come from the injected clock. */
export const createdAt = () => timestamp('created_at').notNull()
export const updatedAt = () => timestamp('updated_at').notNull()
