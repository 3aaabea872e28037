import Sentiment from 'sentiment'

export type SentimentLevel = 'positive' | 'neutral' | 'negative'

/**
 * Thresholds on the AFINN-165 comparative score (sum of word valences, each -5..+5, divided by the
 * number of tokens). ±0.05 means a net valence of one point per twenty words: a single mild word
 * ("bad", -3) in a sixty-word report tips it, while neutral bug prose with the odd "broken" or
 * "crash" (-1 .. -2 in long text) stays neutral.
 */
export const POSITIVE_AT = 0.05
export const NEGATIVE_AT = -0.05

/**
 * Only the first characters are scored: the player's tone shows in the opening lines (1,000
 * characters are ~170 words), and the scorer costs ~12 ns per character on the ingest path (2,000
 * characters cost ~24 µs of a filed report's ~300; long logs would dominate it).
 */
export const SENTIMENT_MAX_CHARS = 1000

const analyzer = new Sentiment()

/** Level of a comparative score under the documented thresholds. */
export function sentimentLevelOf(comparative: number): SentimentLevel {
  if (comparative >= POSITIVE_AT) return 'positive'
  if (comparative <= NEGATIVE_AT) return 'negative'
  return 'neutral'
}

/** The text scored for a report: its parts (title, description, steps) joined, cut at `SENTIMENT_MAX_CHARS`. */
export const sentimentText = (parts: (string | undefined | null)[]): string => parts.filter(Boolean).join('\n').slice(0, SENTIMENT_MAX_CHARS)

/** Scores text from `sentimentText`: comparative AFINN score rounded to 3 decimals, and its level. */
export function scoreSentimentText(text: string): { score: number; level: SentimentLevel } {
  const comparative = text ? analyzer.analyze(text).comparative : 0
  const score = Math.round(comparative * 1000) / 1000
  return { score: Object.is(score, -0) ? 0 : score, level: sentimentLevelOf(comparative) }
}

/** Scores the player's text (title, description, steps). */
export const scoreSentiment = (parts: (string | undefined | null)[]) => scoreSentimentText(sentimentText(parts))
