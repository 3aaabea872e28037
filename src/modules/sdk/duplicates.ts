import { significantWords } from '../reports/title-terms'
import type { SubmitRepository } from './submit.repository'

/** Most words of the new title a lookup uses (the longest, which carry the most meaning): each costs one index seek. */
const MAX_TERMS = 8

/**
 * Report numbers (at most 5, best first) of open, live reports of the project whose titles share
 * significant words with `title`. Ranked by the share of words in common (Jaccard), newest first on
 * ties. The candidates are, for each word, the newest open reports holding it, and the index rows
 * carry each candidate's word count, so the ranking (in SQL, see `similarOpenTitles`) reads no report.
 */
export function findPossibleDuplicates(repo: SubmitRepository, projectId: string, title: string, excludeSeq = -1): number[] {
  const words = significantWords(title)
  if (words.size === 0) return []
  const terms = [...words].sort((a, b) => b.length - a.length).slice(0, MAX_TERMS)
  return repo.similarOpenTitles(projectId, terms, words.size, excludeSeq)
}
