import { GAME_VALENCE, INTENSIFIERS, NEGATORS, PHRASES, PROBLEMS, SARCASM, SARCASM_IF_NEGATIVE } from './sentiment.lexicon'

export type SentimentLevel = 'positive' | 'neutral' | 'negative'

/**
 * Thresholds on the score (the net valence divided by the square root of the number of words, see
 * `scoreSentimentText`). ±0.3 is one strong word ("awful", -3) in a hundred-word report, or one mild
 * one ("annoying", -2) in a forty-word one: a matter-of-fact report with a "please" or a "thanks"
 * at its end stays neutral.
 */
export const POSITIVE_AT = 0.3
export const NEGATIVE_AT = -0.3

/**
 * Only the first characters are scored: the player's tone shows in the opening lines (1,000
 * characters are ~170 words), and scoring costs time on the ingest path (long logs would dominate it).
 */
export const SENTIMENT_MAX_CHARS = 1000

const NEGATION_SCOPE = 3
const TITLE_WEIGHT = 2
/** What the scorer knows of a word, in one lookup: its valence and the roles that change its neighbours. */
interface WordFacts {
  valence: number
  negator: boolean
  intensifier: boolean
  problem: boolean
}
// One map, the game's words over AFINN-165's, with the negators, intensifiers and problem words: one
// lookup per word (four lookups of each fresh substring cost about half the scoring time). A Map has
// no prototype, so "constructor" is a word like any other. Built at the first report scored, not at
// import: its 3,400 words cost every start-up (issue 30).
let lexicon: Map<string, WordFacts> | null = null
function lexiconTable(): Map<string, WordFacts> {
  // AFINN-165 as the `sentiment` package ships it, loaded the way the package loads it (an ES import
  // of the JSON is read-only in Bun, and the package adds emoji to the same object when it loads).
  const afinn: Record<string, number> = require('sentiment/languages/en/labels.json')
  const table = new Map<string, WordFacts>()
  const facts = (word: string) => {
    let f = table.get(word)
    if (!f) table.set(word, (f = { valence: 0, negator: false, intensifier: false, problem: false }))
    return f
  }
  for (const [word, valence] of [...Object.entries(afinn), ...Object.entries(GAME_VALENCE)]) facts(word).valence = valence
  for (const word of NEGATORS) facts(word).negator = true
  for (const word of INTENSIFIERS) facts(word).intensifier = true
  for (const word of PROBLEMS) facts(word).problem = true
  lexicon = table
  return table
}

/** Level of a score under the documented thresholds. */
export function sentimentLevelOf(score: number): SentimentLevel {
  if (score >= POSITIVE_AT) return 'positive'
  if (score <= NEGATIVE_AT) return 'negative'
  return 'neutral'
}

/** The text scored for a report: its parts (title, description, steps) joined, cut at `SENTIMENT_MAX_CHARS`. */
export const sentimentText = (parts: (string | undefined | null)[]): string => parts.filter(Boolean).join('\n').slice(0, SENTIMENT_MAX_CHARS)

/**
 * Every phrase in one pass: group i is PHRASES[i] (their own groups do not capture). Every phrase
 * starts at a word boundary; saying so once in front lets the engine skip the other positions
 * without trying each alternative there (3.5x faster on a 1,000-character report).
 */
const ANY_PHRASE = new RegExp(`\\b(?:${PHRASES.map(([phrase]) => `(${phrase.source})`).join('|')})`, 'g')


/** Whether a token has a letter or digit (punctuation runs and lone apostrophes have none). */
function hasLetterOrDigit(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i)
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) return true
  }
  return false
}

/** The valences of a text's words and phrases, after negation, intensifiers and capitals; and its number of words. */
function valences(text: string): { values: number[]; words: number } {
  const values: number[] = []
  // The title is the report's gist, where a player puts the mood ("Worst launch ever"); the details follow.
  const titleEnd = text.includes('\n') ? text.indexOf('\n') : 0
  const weight = (index: number) => (index < titleEnd ? TITLE_WEIGHT : 1)
  let lower = text.toLowerCase().replace(/[‘’]/g, "'")
  // A phrase counts once and its words no more (a clause break keeps negation from crossing it).
  lower = lower.replace(ANY_PHRASE, (m: string, ...groups: unknown[]) => {
    const index = groups[PHRASES.length] as number
    values.push(PHRASES[groups.findIndex((g) => g !== undefined)]![1] * weight(index))
    return ` ${'.'.padEnd(m.length - 1)}`
  })
  // Tokens of the original text at the same offsets, so capitals ("CRASHES AGAIN") can be read.
  // An exec loop rather than [...matchAll]: the iterator and the spread took a quarter of the scoring time.
  const token = /[a-z0-9']+|[.!?;:,]+|\bbut\b/g
  let negatedFor = 0
  let intensify = 1
  let words = 0
  const table = lexicon ?? lexiconTable()
  for (let t = token.exec(lower); t !== null; t = token.exec(lower)) {
    const word = t[0]
    if (!hasLetterOrDigit(word) || word === 'but') {
      negatedFor = 0
      intensify = 1
      continue
    }
    words++
    const facts = table.get(word)
    let v = facts?.valence ?? 0
    if (negatedFor > 0) {
      v = facts?.problem ? 1.5 : v * -0.8
      negatedFor--
    }
    if (v !== 0) {
      const original = text.slice(t.index, t.index + word.length)
      const shouted = original.length >= 3 && original === original.toUpperCase() && /[A-Z]/.test(original)
      values.push(v * weight(t.index) * intensify * (shouted ? 1.5 : 1))
    }
    intensify = facts?.intensifier ? 1.5 : 1
    if (facts?.negator) negatedFor = NEGATION_SCOPE
  }
  return { values, words }
}

/**
 * Scores text from `sentimentText`: AFINN-165 valences with game words (sentiment.lexicon.ts),
 * negation over the next three words of a clause, intensifiers and capitals ×1.5, and sarcasm markers
 * that turn praise negative; the net valence divided by the square root of the number of words
 * (so one angry sentence in a long report still counts), rounded to 3 decimals, and its level.
 */
export function scoreSentimentText(text: string): { score: number; level: SentimentLevel } {
  const { values, words } = valences(text)
  const lower = text.toLowerCase()
  const negative = values.filter((v) => v < 0).reduce((a, b) => a + b, 0)
  const hints = lower.match(SARCASM_IF_NEGATIVE)?.length ?? 0
  const sarcastic = SARCASM.test(lower) || hints >= 2 || (hints === 1 && negative <= -2)
  const net = values.reduce((sum, v) => sum + (sarcastic && v > 0 ? -v : v), 0)
  const score = Math.round((net / Math.sqrt(Math.max(words, 1))) * 1000) / 1000
  return { score: Object.is(score, -0) ? 0 : score, level: sentimentLevelOf(score) }
}

/** Scores the player's text (title, description, steps). */
export const scoreSentiment = (parts: (string | undefined | null)[]) => scoreSentimentText(sentimentText(parts))
