// A rollup cursor's position is 64-bit on SQLite (every integer is); some cursors hold epoch ms (the
// analytics events' first day), past PostgreSQL's 32-bit integer. Widened in place: Drizzle's integer
// column reads an int8 back as a number.
export const rollupCursorsPgSql = ['ALTER TABLE rollup_cursors ALTER COLUMN position TYPE bigint']
