import type { Database, Statement } from 'bun:sqlite'
import { significantWords } from '../reports/title-terms'

/**
 * How many of the newest open reports holding a word are ranked for `possible_duplicates`: bounds the
 * lookup's cost, about 1.2 µs a candidate row (with four words: 30 cost ~40 µs of a filed report's
 * ~300, 20 ~29 µs, 12 ~20 µs, 10 ~19 µs; the rest is one index seek per word).
 */
export const DUPLICATE_CANDIDATES = 12
/** Most report numbers `possible_duplicates` lists. */
export const MAX_DUPLICATES = 5
/** Most words of the new title a lookup uses (the longest, which carry the most meaning): each costs one index seek. */
const MAX_TERMS = 8

/** Numbers of the open reports of a project sharing most of `terms` (the title has `wordCount` words in all), best first. */
export type SimilarOpenTitles = (projectId: string, terms: string[], wordCount: number) => number[]

/**
 * The ranking query over `open_title_terms` on a connection. Raw statements: the table is not a Drizzle table (see open-title-terms.ts). One per
 * number of words (1-8), prepared on first use. Each word's branch reads the newest open reports
 * holding it (no ORDER BY: the primary key walk already yields the newest first, and in bun:sqlite
 * a satisfied ORDER BY still costs ~5 µs a call); SQLite then counts the words each candidate
 * shares and ranks by Jaccard share, newest first on ties, so only the 5 numbers come back to
 * JavaScript (reading the ~150 candidate rows as objects cost more than the whole ranking).
 */
export function similarOpenTitlesQuery(sqlite: Database): SimilarOpenTitles {
  const byTermCount = new Map<number, Statement<{ reportNumber: number }, (string | number)[]>>()
  return (projectId, terms, wordCount) => {
    let stmt = byTermCount.get(terms.length)
    if (!stmt) {
      const branch = (i: number) =>
        `SELECT * FROM (SELECT neg_seq, report_number, n_terms FROM open_title_terms WHERE project_id = ?1 AND term = ?${i + 3} LIMIT ${DUPLICATE_CANDIDATES})`
      stmt = sqlite.prepare(
        `SELECT report_number AS reportNumber FROM (${terms.map((_, i) => branch(i)).join(' UNION ALL ')})
         GROUP BY neg_seq
         ORDER BY count(*) * 1.0 / (?2 + n_terms - count(*)) DESC, neg_seq LIMIT ${MAX_DUPLICATES}`,
      )
      byTermCount.set(terms.length, stmt)
    }
    return stmt.all(projectId, wordCount, ...terms).map((r) => r.reportNumber)
  }
}

/**
 * Report numbers (at most 5, best first) of open, live reports of the project whose titles share
 * significant words with `title`. Ranked by the share of words in common (Jaccard), newest first on
 * ties. The candidates are, for each word, the newest open reports holding it, and the index rows
 * carry each candidate's word count, so the ranking reads no report. Ingest looks them up before
 * filing the new report, so it is never among them.
 */
export function findPossibleDuplicates(index: { similarOpenTitles: SimilarOpenTitles }, projectId: string, title: string): number[] {
  const words = significantWords(title)
  if (words.size === 0) return []
  const terms = [...words].sort((a, b) => b.length - a.length).slice(0, MAX_TERMS)
  return index.similarOpenTitles(projectId, terms, words.size)
}
