import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'

/** The larger of two non-null values, in SQL both engines read (SQLite's two-argument max() is `greatest` on PostgreSQL). */
export const larger = (a: SQLWrapper, b: SQLWrapper): SQL => sql`CASE WHEN ${b} > ${a} THEN ${b} ELSE ${a} END`

/** The smaller of two non-null values, in SQL both engines read (see larger). */
export const smaller = (a: SQLWrapper, b: SQLWrapper): SQL => sql`CASE WHEN ${b} < ${a} THEN ${b} ELSE ${a} END`
