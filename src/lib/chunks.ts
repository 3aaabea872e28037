/**
 * Ids bound per `IN (…)` list when a caller may pass a whole project's worth: far under SQLite's
 * 32,766 and PostgreSQL's 65,535 bound parameters.
 */
export const ID_CHUNK = 5000

/** `items` in consecutive slices of at most `size`. */
export function chunks<T>(items: T[], size = ID_CHUNK): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
