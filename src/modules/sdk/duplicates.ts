import type { SubmitRepository } from './submit.repository'

const STOPWORDS = new Set(
  ('the and for but not you your with from this that when then than into onto over under after before while ' +
    "are was were been being has have had does did can could will would should its it's our out off too very " +
    'just all any some get got use using what which who how why where there here they them his her she him')
    .split(' '),
)

/** Most words a duplicate lookup uses (the longest, which carry the most meaning): each adds a doclist to merge. */
const MAX_TERMS = 6
export const MAX_DUPLICATES = 5

/**
 * The significant words of a title: lower-cased, 3+ characters, no stop words or bare numbers. Words
 * are runs of letters and digits, split where the FTS5 tokenizer splits (an underscore separates),
 * so each is a single token of `open_report_titles`.
 */
export function significantWords(title: string): Set<string> {
  const words = new Set<string>()
  // Accents are folded as the FTS5 tokenizer folds them (remove_diacritics); ASCII skips the work.
  const folded = /[^\x00-\x7f]/.test(title) ? title.normalize('NFD').replace(/\p{M}/gu, '') : title
  for (const w of folded.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (w.length >= 3 && !STOPWORDS.has(w) && !/^\d+$/.test(w)) words.add(w)
  }
  return words
}

/**
 * An FTS5 query over `open_report_titles` for the project's titles holding any of the significant
 * words, each quoted so that no user text can form FTS syntax (operators, column filters,
 * unbalanced quotes); null when no word is significant.
 */
export function duplicateQueryOf(projectId: string, words: Set<string>): string | null {
  if (words.size === 0) return null
  const terms = [...words].sort((a, b) => b.length - a.length).slice(0, MAX_TERMS)
  return `"p${projectId.replaceAll('-', '')}" AND (${terms.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR ')})`
}

/**
 * Report numbers (at most 5, best first) of open, live reports of the project whose titles share
 * significant words with `title`. Ranked by the share of words in common (Jaccard), newest first on
 * ties; the candidates are the newest open title matches (see `similarOpen`).
 */
export function findPossibleDuplicates(repo: SubmitRepository, projectId: string, title: string, excludeSeq = -1): number[] {
  const words = significantWords(title)
  const query = duplicateQueryOf(projectId, words)
  if (!query) return []
  let candidates: { reportNumber: number; title: string }[]
  try {
    candidates = repo.similarOpen.all({ projectId, query, excludeSeq })
  } catch {
    // A word the FTS5 tokenizer splits differently (a letter its Unicode tables do not know) makes
    // the query a phrase, which this index refuses. The report is already saved: no suggestions.
    return []
  }
  const scored = candidates.map((r, order) => {
    const other = significantWords(r.title)
    let common = 0
    for (const w of other) if (words.has(w)) common++
    return { n: r.reportNumber, score: common / (words.size + other.size - common), order }
  })
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_DUPLICATES)
    .map((s) => s.n)
}
