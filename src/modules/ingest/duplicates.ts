import { significantWords } from '../reports/title-terms'
import type { IngestRepository } from './ingest.repository'

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

/**
 * Report numbers (at most 5, best first) of open, live reports of the project whose titles share
 * significant words with `title`. Ranked by the share of words in common (Jaccard), newest first on
 * ties. The candidates are, for each word, the newest open reports holding it, and the index rows
 * carry each candidate's word count, so the ranking reads no report. Ingest looks them up before
 * filing the new report, so it is never among them.
 */
export async function findPossibleDuplicates(index: Pick<IngestRepository, 'similarOpenTitles'>, projectId: string, title: string): Promise<number[]> {
  const words = significantWords(title)
  if (words.size === 0) return []
  const terms = [...words].sort((a, b) => b.length - a.length).slice(0, MAX_TERMS)
  return index.similarOpenTitles(projectId, terms, words.size)
}
