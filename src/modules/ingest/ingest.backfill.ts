import type { SqliteHandle } from '../../db/client'
import { titleTermsOf } from '../reports/title-terms'
import { groupingOfReport } from './fingerprint'

/**
 * Gives the reports of a database written before grouping by fingerprint their fingerprint and
 * label (from their title, error type and stack trace, as a new submission would get them), so new
 * occurrences join them after the upgrade. Also fills the title words of reports filed from the old
 * SDK inbox by migration 0019 (SQL cannot compute them). Runs once, in chunks.
 */
export function backfillFingerprints(sqlite: SqliteHandle): void {
  type Row = { seq: number; title: string; description: string; source: string; errorType: string; titleTerms: string | null }
  const chunk = sqlite.query<Row, [number]>(
    `SELECT seq, title, description, source, error_type AS errorType, title_terms AS titleTerms FROM reports WHERE fingerprint = '' AND seq > ? ORDER BY seq LIMIT 5000`,
  )
  const update = sqlite.prepare<unknown, [string, string, string | null, number]>('UPDATE reports SET fingerprint = ?, grouping_label = ?, title_terms = coalesce(title_terms, ?) WHERE seq = ?')
  for (let rows = chunk.all(0); rows.length > 0; rows = chunk.all(rows.at(-1)!.seq)) {
    for (const r of rows) {
      const g = groupingOfReport(r)
      update.run(g.fingerprint, g.label, r.titleTerms === null ? titleTermsOf(r.title) : null, r.seq)
    }
  }
}
