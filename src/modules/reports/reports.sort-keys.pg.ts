// PostgreSQL only: the list's sort keys of each live report beside its seq, in one covering index, so a
// list that a facet drives and a column sorts (`player:… sort=players`) orders the facet's reports
// from the index alone and reads the rows of its page only (reports.list.repository.ts `sortedPage`).
// Ordering the busiest player's 4,029 of 1M reports by their rows read 16,000 buffers (~30 ms); from
// this index, without the rows, ~12,000 smaller ones (~13–20 ms). SQLite needs none: there the
// facet's key walk probes each report by its rowid, the row itself, at ~1 µs a probe.
export const reportSortKeysPgSql = [
  `CREATE INDEX IF NOT EXISTS reports_live_sort_keys_idx ON reports (seq)
    INCLUDE (project_id, priority_rank, upvotes, updated_at, last_seen, occurrence_count, player_count)
    WHERE deleted_at IS NULL`,
]
