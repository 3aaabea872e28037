import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { onPostgres, type Query } from './client'

/** The larger of two non-null values, in SQL both engines read (SQLite's two-argument max() is `greatest` on PostgreSQL). */
export const larger = (a: SQLWrapper, b: SQLWrapper): SQL => sql`CASE WHEN ${b} > ${a} THEN ${b} ELSE ${a} END`

/** The smaller of two non-null values, in SQL both engines read (see larger). */
export const smaller = (a: SQLWrapper, b: SQLWrapper): SQL => sql`CASE WHEN ${b} < ${a} THEN ${b} ELSE ${a} END`

/** `column` kept off the planner's index choice on SQLite (unary plus); PostgreSQL has no such hint (nor a + on text). */
export const unindexed = (q: Query, column: SQLWrapper): SQL => (onPostgres(q) ? sql`${column}` : sql`+${column}`)

/** `column` contains `text` ignoring case (SQLite's LIKE ignores ASCII case; PostgreSQL's needs ILIKE), with `%`, `_` and `\` in `text` taken literally. */
export const containsText = (q: Query, column: SQLWrapper, text: string): SQL =>
  sql`${column} ${onPostgres(q) ? sql`ILIKE` : sql`LIKE`} ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} ESCAPE '\\'`

/** How many rows of the group meet `condition`, 0 for none (SQLite sums booleans; PostgreSQL cannot, and its sum is a bigint). */
export const countWhere = (condition: SQLWrapper): SQL<number> => sql<number>`coalesce(sum(CASE WHEN ${condition} THEN 1 ELSE 0 END), 0)`.mapWith(Number)
