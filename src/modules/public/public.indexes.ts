/**
 * The public tracker's index: live public reports of a project by upvotes, newest first on ties,
 * with the filter columns alongside (status, category, and the publication columns the `publish`
 * rules read: published, triaged_at, auto_filed), so a page, its bounded count and its filters are
 * read from the index alone. `is_private` is in no other index, and counting a large project's
 * public reports through the table cost ~10 ms per 10,000 rows. Partial indexes only serve queries
 * whose WHERE spells the same literal terms, hence `is_private = 0` in `publicReportsOf`.
 * `reports_public_upvotes_idx` was this index before the publication columns (issue 25).
 */
export const PUBLIC_TRACKER_INDEX = 'reports_public_idx'

/**
 * The same over the reports published one by one, for `publish: manual`: there the tracker shows
 * few of many reports, and its bounded count walked the whole index above (~10 ms at 100,000).
 */
export const PUBLISHED_INDEX = 'reports_published_idx'

export const publicTrackerIndexSql = [
  `DROP INDEX IF EXISTS reports_public_upvotes_idx`,
  `CREATE INDEX IF NOT EXISTS ${PUBLIC_TRACKER_INDEX} ON reports (project_id, upvotes, seq, status, category, published, triaged_at, auto_filed)
    WHERE deleted_at IS NULL AND is_private = 0`,
  `CREATE INDEX IF NOT EXISTS ${PUBLISHED_INDEX} ON reports (project_id, upvotes, seq, status, category)
    WHERE deleted_at IS NULL AND is_private = 0 AND published = 1`,
]
