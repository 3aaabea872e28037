/**
 * The public tracker's index: live public reports of a project by upvotes, newest first on ties,
 * with the filter columns alongside, so a page, its bounded count and its status/category filters
 * are read from the index alone. `is_private` is in no other index, and counting a large project's
 * public reports through the table cost ~10 ms per 10,000 rows. Partial indexes only serve queries
 * whose WHERE spells the same literal terms, hence `is_private = 0` in `publicReportsOf`.
 */
export const publicTrackerIndexSql = [
  `CREATE INDEX IF NOT EXISTS reports_public_upvotes_idx ON reports (project_id, upvotes, seq, status, category)
    WHERE deleted_at IS NULL AND is_private = 0`,
]
