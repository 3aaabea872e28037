import { significantWords } from '../reports/title-terms'
import type { SubmitRepository } from './submit.repository'

/** Most words of the new title a lookup uses (the longest, which carry the most meaning): each costs one index seek. */
const MAX_TERMS = 8
export const MAX_DUPLICATES = 5

/**
 * Report numbers (at most 5, best first) of open, live reports of the project whose titles share
 * significant words with `title`. Ranked by the share of words in common (Jaccard), newest first on
 * ties. The candidates are, for each word, the newest open reports holding it (see `openTitlesWith`),
 * and the index rows carry each candidate's word count, so the ranking reads no report.
 */
export function findPossibleDuplicates(repo: SubmitRepository, projectId: string, title: string, excludeSeq = -1): number[] {
  const words = significantWords(title)
  if (words.size === 0) return []
  const terms = [...words].sort((a, b) => b.length - a.length).slice(0, MAX_TERMS)
  // -seq → the candidate with the number of our words it holds.
  const candidates = new Map<number, { reportNumber: number; nTerms: number; common: number }>()
  for (const term of terms) {
    for (const hit of repo.openTitlesWith.all(projectId, term)) {
      const c = candidates.get(hit.negSeq)
      if (c) c.common++
      else if (hit.negSeq !== -excludeSeq) candidates.set(hit.negSeq, { reportNumber: hit.reportNumber, nTerms: hit.nTerms, common: 1 })
    }
  }
  return [...candidates]
    .map(([negSeq, c]) => ({ n: c.reportNumber, negSeq, score: c.common / (words.size + c.nTerms - c.common) }))
    .sort((a, b) => b.score - a.score || a.negSeq - b.negSeq)
    .slice(0, MAX_DUPLICATES)
    .map((s) => s.n)
}
