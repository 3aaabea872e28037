import { PUBLIC_TRACKER_INDEX, PUBLISHED_INDEX } from './public.indexes'

// The PostgreSQL form of public.indexes.ts: the public tracker's partial indexes, the same columns under
// the same literal predicates (`publicReportsOf` spells them so on either engine).
export const publicTrackerIndexPgSql = [
  `CREATE INDEX IF NOT EXISTS ${PUBLIC_TRACKER_INDEX} ON reports (project_id, upvotes, seq, status, category, published, triaged_at, auto_filed)
    WHERE deleted_at IS NULL AND is_private = 0`,
  `CREATE INDEX IF NOT EXISTS ${PUBLISHED_INDEX} ON reports (project_id, upvotes, seq, status, category)
    WHERE deleted_at IS NULL AND is_private = 0 AND published = 1`,
]
