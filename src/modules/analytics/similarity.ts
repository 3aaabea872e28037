const STOP = new Set(['the', 'and', 'for', 'with', 'when', 'after', 'from', 'into', 'that', 'this', 'not', 'are', 'was', 'but', 'error', 'freeze', 'exception'])

/** A title's words as compared by regressions and triage: lower-cased letter/digit runs of 3+ characters, no pure numbers, no stop words, SDK prefixes like `[Error]` dropped. */
export function titleWords(title: string): Set<string> {
  return new Set(
    title
      .toLowerCase()
      .replace(/^\s*\[[a-z]+\]\s*/, '')
      .split(/[^\p{L}\p{N}_]+/u)
      .filter((w) => w.length >= 3 && !/^\d+$/.test(w) && !STOP.has(w)),
  )
}

/** Jaccard index of two word sets (0 when both are empty). */
export function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 0
  let both = 0
  for (const w of a) if (b.has(w)) both++
  return both / (a.size + b.size - both)
}
