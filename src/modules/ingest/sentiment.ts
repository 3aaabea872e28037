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

// What the scorer knows of a word, in one lookup: its valence and the roles that change its
// neighbours. The game's words over AFINN-165's, with the negators, intensifiers and problem words.
// The table is an open-addressing hash over the words' characters, probed with a hash the scanner
// works out while it reads a word: no substring, regex match or Map hashing per word (those were
// two thirds of the scoring time). Words holding a character the scanner never puts in a word (AFINN's
// multi-word entries and emoji) can never be looked up and are left out. Built at the first report
// scored, not at import: its 3,400 words cost every start-up (issue 30).
const NEGATOR = 1
const INTENSIFIER = 2
const PROBLEM = 4
interface Lexicon {
  /** Slot → word (undefined: empty); a power of two long. */
  words: (string | undefined)[]
  valence: Float64Array
  roles: Uint8Array
  mask: number
}
let lexicon: Lexicon | null = null

/** A word character of the scanner: a-z, 0-9 or the apostrophe (the lowercased text's `[a-z0-9']`). */
const isWordChar = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 39
/** A clause break: a run of `.!?;:,`. */
const isBreak = (c: number) => c === 46 || c === 33 || c === 63 || c === 59 || c === 58 || c === 44
/** One step of the words' hash (FNV-1a over UTF-16 code units), the same in the table and the scanner. */
const step = (h: number, c: number) => Math.imul(h ^ c, 16777619)
const HASH_START = 0x811c9dc5 | 0

function lexiconTable(): Lexicon {
  // AFINN-165 as the `sentiment` package ships it, loaded the way the package loads it (an ES import
  // of the JSON is read-only in Bun, and the package adds emoji to the same object when it loads).
  const afinn: Record<string, number> = require('sentiment/languages/en/labels.json')
  const facts = new Map<string, { valence: number; roles: number }>()
  const of = (word: string) => {
    let f = facts.get(word)
    if (!f) facts.set(word, (f = { valence: 0, roles: 0 }))
    return f
  }
  for (const [word, valence] of [...Object.entries(afinn), ...Object.entries(GAME_VALENCE)]) of(word).valence = valence
  for (const word of NEGATORS) of(word).roles |= NEGATOR
  for (const word of INTENSIFIERS) of(word).roles |= INTENSIFIER
  for (const word of PROBLEMS) of(word).roles |= PROBLEM
  const readable = [...facts].filter(([word]) => word.length > 0 && [...word].every((ch) => ch.length === 1 && isWordChar(ch.charCodeAt(0))))
  let size = 1
  while (size < readable.length * 4) size *= 2
  const table: Lexicon = { words: new Array(size).fill(undefined), valence: new Float64Array(size), roles: new Uint8Array(size), mask: size - 1 }
  for (const [word, f] of readable) {
    let h = HASH_START
    for (let i = 0; i < word.length; i++) h = step(h, word.charCodeAt(i))
    let slot = h & table.mask
    while (table.words[slot] !== undefined) slot = (slot + 1) & table.mask
    table.words[slot] = word
    table.valence[slot] = f.valence
    table.roles[slot] = f.roles
  }
  lexicon = table
  return table
}

/** The slot of `text[start, end)` in the table (its hash `h`), or -1 when the lexicon does not have the word. */
function slotOf(table: Lexicon, text: string, start: number, end: number, h: number): number {
  const len = end - start
  for (let slot = h & table.mask; ; slot = (slot + 1) & table.mask) {
    const word = table.words[slot]
    if (word === undefined) return -1
    if (word.length !== len) continue
    let i = 0
    while (i < len && word.charCodeAt(i) === text.charCodeAt(start + i)) i++
    if (i === len) return slot
  }
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


/**
 * The valences of a text's words and phrases, after negation, intensifiers and capitals; its number
 * of words; and the lowercased text (before the phrases and quotes were taken out) for the sarcasm markers.
 */
function valences(text: string): { values: number[]; words: number; lowered: string } {
  const values: number[] = []
  // The title is the report's gist, where a player puts the mood ("Worst launch ever"); the details follow.
  const titleEnd = text.includes('\n') ? text.indexOf('\n') : 0
  const weight = (index: number) => (index < titleEnd ? TITLE_WEIGHT : 1)
  const lowered = text.toLowerCase()
  let lower = lowered.replace(/[‘’]/g, "'")
  // A phrase counts once and its words no more (a clause break keeps negation from crossing it).
  lower = lower.replace(ANY_PHRASE, (m: string, ...groups: unknown[]) => {
    const index = groups[PHRASES.length] as number
    values.push(PHRASES[groups.findIndex((g) => g !== undefined)]![1] * weight(index))
    return ` ${'.'.padEnd(m.length - 1)}`
  })
  // The tokens of /[a-z0-9']+|[.!?;:,]+/g, read by hand (a regex match and a substring per word cost
  // more than the rest of the scoring): a word is a run of word characters with a letter or digit in
  // it; a run of breaks, a run of apostrophes alone, or "but" ends the clause (negation and
  // intensifier stop there). Offsets are the lowercased text's, as are the original's (capitals).
  const table = lexicon ?? lexiconTable()
  let negatedFor = 0
  let intensify = 1
  let words = 0
  const n = lower.length
  let i = 0
  while (i < n) {
    let c = lower.charCodeAt(i)
    if (isBreak(c)) {
      negatedFor = 0
      intensify = 1
      i++
      continue
    }
    if (!isWordChar(c)) {
      i++
      continue
    }
    const start = i
    let h = HASH_START
    let alnum = false
    do {
      if (c !== 39) alnum = true
      h = step(h, c)
      i++
    } while (i < n && isWordChar((c = lower.charCodeAt(i))))
    if (!alnum || (i - start === 3 && lower.startsWith('but', start))) {
      negatedFor = 0
      intensify = 1
      continue
    }
    words++
    const slot = slotOf(table, lower, start, i, h)
    const roles = slot < 0 ? 0 : table.roles[slot]!
    let v = slot < 0 ? 0 : table.valence[slot]!
    if (negatedFor > 0) {
      v = roles & PROBLEM ? 1.5 : v * -0.8
      negatedFor--
    }
    if (v !== 0) {
      const original = text.slice(start, i)
      const shouted = original.length >= 3 && original === original.toUpperCase() && /[A-Z]/.test(original)
      values.push(v * weight(start) * intensify * (shouted ? 1.5 : 1))
    }
    intensify = roles & INTENSIFIER ? 1.5 : 1
    if (roles & NEGATOR) negatedFor = NEGATION_SCOPE
  }
  return { values, words, lowered }
}

/**
 * Scores text from `sentimentText`: AFINN-165 valences with game words (sentiment.lexicon.ts),
 * negation over the next three words of a clause, intensifiers and capitals ×1.5, and sarcasm markers
 * that turn praise negative; the net valence divided by the square root of the number of words
 * (so one angry sentence in a long report still counts), rounded to 3 decimals, and its level.
 */
export function scoreSentimentText(text: string): { score: number; level: SentimentLevel } {
  const { values, words, lowered: lower } = valences(text)
  // Sarcasm only turns positive valences: with none, the markers are not looked for.
  let sarcastic = false
  if (values.some((v) => v > 0)) {
    const negative = values.filter((v) => v < 0).reduce((a, b) => a + b, 0)
    const hints = lower.match(SARCASM_IF_NEGATIVE)?.length ?? 0
    sarcastic = SARCASM.test(lower) || hints >= 2 || (hints === 1 && negative <= -2)
  }
  const net = values.reduce((sum, v) => sum + (sarcastic && v > 0 ? -v : v), 0)
  const score = Math.round((net / Math.sqrt(Math.max(words, 1))) * 1000) / 1000
  return { score: Object.is(score, -0) ? 0 : score, level: sentimentLevelOf(score) }
}

/** Scores the player's text (title, description, steps). */
export const scoreSentiment = (parts: (string | undefined | null)[]) => scoreSentimentText(sentimentText(parts))
