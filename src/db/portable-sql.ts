import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { onPostgres, type Query } from './client'

/** The larger of two non-null values, in SQL both engines read (SQLite's two-argument max() is `greatest` on PostgreSQL). */
export const larger = (a: SQLWrapper, b: SQLWrapper): SQL => sql`CASE WHEN ${b} > ${a} THEN ${b} ELSE ${a} END`

/** The smaller of two non-null values, in SQL both engines read (see larger). */
export const smaller = (a: SQLWrapper, b: SQLWrapper): SQL => sql`CASE WHEN ${b} < ${a} THEN ${b} ELSE ${a} END`

/**
 * `column` among the values of a JSON array bound as one parameter (`list`: a placeholder, or the
 * array's JSON text; `of`: what it holds): SQLite's json_each, PostgreSQL's jsonb. One parameter for
 * any number of values: building an IN list of n parameters cost ~5 µs a value (a page's 25 ids and
 * seqs, ~200 µs), and each n is a statement of its own. Cast to text first on PostgreSQL: bound
 * straight as jsonb, Bun's client sends the string as a JSON string (a scalar), not as the array it spells.
 */
export const inJsonList = (pg: boolean, column: SQLWrapper, list: SQLWrapper | string, of: 'text' | 'integer' = 'text'): SQL => {
  if (!pg) return sql`${column} IN (SELECT value FROM json_each(${list}))`
  const items = sql`jsonb_array_elements_text(CAST(CAST(${list} AS text) AS jsonb))`
  return sql`${column} IN (SELECT ${of === 'integer' ? sql`CAST(${items} AS bigint)` : items})`
}

/** `column` kept off the planner's index choice on SQLite (unary plus); PostgreSQL has no such hint (nor a + on text). */
export const unindexed = (q: Query, column: SQLWrapper): SQL => (onPostgres(q) ? sql`${column}` : sql`+${column}`)

/** `column` contains `text` ignoring case (SQLite's LIKE ignores ASCII case; PostgreSQL's needs ILIKE), with `%`, `_` and `\` in `text` taken literally. */
export const containsText = (q: Query, column: SQLWrapper, text: string): SQL =>
  sql`${column} ${onPostgres(q) ? sql`ILIKE` : sql`LIKE`} ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} ESCAPE '\\'`

/** How many rows of the group meet `condition`, 0 for none (SQLite sums booleans; PostgreSQL cannot, and its sum is a bigint). */
export const countWhere = (condition: SQLWrapper): SQL<number> => sql<number>`coalesce(sum(CASE WHEN ${condition} THEN 1 ELSE 0 END), 0)`.mapWith(Number)

/**
 * `haystack` contains `needle` as it is (case-sensitive): `instr` on SQLite, `strpos` on PostgreSQL.
 * Not LIKE with a bound pattern: SQLite prepares such a statement again at every new binding (its
 * LIKE optimisation depends on the pattern), which cost ~40 µs a call on the per-report event path.
 */
export const containsExactly = (q: Query, haystack: SQLWrapper, needle: SQLWrapper | string): SQL =>
  onPostgres(q) ? sql`strpos(${haystack}, ${needle}) > 0` : sql`instr(${haystack}, ${needle}) > 0`

/**
 * `column IN (picks)`, with `picks` run once. On PostgreSQL an `IN (subquery)` may be rescanned per
 * row of an UPDATE, and a subquery that locks `FOR UPDATE SKIP LOCKED … LIMIT n` then skips the rows
 * the UPDATE already changed and picks n more each time: a claim of 8 jobs took all 20 due. As
 * `= ANY(ARRAY(…))` it is an init plan, run once. SQLite runs the subquery once already.
 */
export const inPicked = (q: Query, column: SQLWrapper, picks: SQLWrapper): SQL => (onPostgres(q) ? sql`${column} = ANY(ARRAY(${picks}))` : sql`${column} IN ${picks}`)
