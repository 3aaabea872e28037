const STOPWORDS = new Set(
  ('the and for but not you your with from this that when then than into onto over under after before while ' +
    "are was were been being has have had does did can could will would should its it's our out off too very " +
    'just all any some get got use using what which who how why where there here they them his her she him')
    .split(' '),
)

/**
 * The significant words of a title: lower-cased, accents folded, runs of letters and digits of 3+
 * characters, no stop words or bare numbers. Two titles sharing these are candidate duplicates.
 */
export function significantWords(title: string): Set<string> {
  const words = new Set<string>()
  // ASCII (most titles) skips the Unicode normalization.
  const folded = /[^\x00-\x7f]/.test(title) ? title.normalize('NFD').replace(/\p{M}/gu, '') : title
  for (const w of folded.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (w.length >= 3 && !STOPWORDS.has(w) && !/^\d+$/.test(w)) words.add(w)
  }
  return words
}

/** The `reports.title_terms` value of a title: its significant words as a JSON array (the triggers of open-title-terms.ts read it with json_each). */
export const titleTermsOf = (title: string): string => JSON.stringify([...significantWords(title)])

/** Lower-cased, whitespace-collapsed title: reports with equal keys are "the same bug". */
export const titleKeyOf = (title: string) => title.trim().toLowerCase().replace(/\s+/g, ' ')

/** The derived columns a report's title carries; whoever writes a title writes these with it. */
export const titleColumnsOf = (title: string) => ({ title, titleTerms: titleTermsOf(title) })
