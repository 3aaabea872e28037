import type { Backfill } from '../../db/post-migrate'
import { titleTermsOf } from '../reports/title-terms'
import { groupingOfReport } from './fingerprint'

type Row = { seq: number; title: string; description: string; source: string; errorType: string; titleTerms: string | null }

/**
 * Gives the reports of a database written before grouping by fingerprint their fingerprint and
 * label (from their title, error type and stack trace, as a new submission would get them), so new
 * occurrences join them after the upgrade. Also fills the title words of reports filed from the old
 * SDK inbox by migration 0019. Row by row: SQL cannot compute either.
 */
export const fingerprintsBackfill: Backfill = {
  rows: {
    select: `SELECT seq, title, description, source, error_type AS errorType, title_terms AS titleTerms FROM reports WHERE fingerprint = '' AND seq > ? ORDER BY seq LIMIT 5000`,
    update: 'UPDATE reports SET fingerprint = ?, grouping_label = ?, title_terms = coalesce(title_terms, ?) WHERE seq = ?',
    values: (r: Row) => {
      const g = groupingOfReport(r)
      return [g.fingerprint, g.label, r.titleTerms === null ? titleTermsOf(r.title) : null, r.seq]
    },
  },
}
