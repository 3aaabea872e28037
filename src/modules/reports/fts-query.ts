/**
 * Turns what a user types in the search box into FTS5 MATCH expressions that can never be a syntax
 * error: every term is emitted as a double-quoted FTS5 string, so operators (`AND`, `NEAR(`),
 * column filters (`title:`) and stray quotes or stars in the input are searched as plain words.
 *
 * Supported user syntax: `+must` and plain words (all must match), `-not` (must not match),
 * `"a phrase"` (also `+"…"` / `-"…"`), `prefix*`.
 */
export interface FtsQuery {
  /** MATCH expression for the rows to find, or null when the input has no positive term. */
  match: string | null
  /** MATCH expression of the excluded terms when there is no positive term (`-foo` alone), else null. */
  excludeOnly: string | null
}

interface Term {
  text: string
  prefix: boolean
  negated: boolean
}

// A term that holds no letter or digit would tokenize to nothing; FTS5 would silently match nothing.
const USABLE = /[\p{L}\p{N}]/u

/** Splits the input into terms, honouring quotes (an unclosed quote runs to the end) and +/- markers. */
export function parseSearchTerms(input: string): Term[] {
  const terms: Term[] = []
  let i = 0
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i]!)) i++
    if (i >= input.length) break
    let negated = false
    while (input[i] === '+' || input[i] === '-') negated = input[i++] === '-'
    let text: string
    let prefix = false
    if (input[i] === '"') {
      const end = input.indexOf('"', i + 1)
      text = input.slice(i + 1, end === -1 ? input.length : end)
      i = end === -1 ? input.length : end + 1
      if (input[i] === '*') {
        prefix = true
        i++
      }
    } else {
      const start = i
      while (i < input.length && !/\s/.test(input[i]!) && input[i] !== '"') i++
      text = input.slice(start, i)
      prefix = /\*+$/.test(text)
      text = text.replace(/\*+/g, ' ').trim()
    }
    if (USABLE.test(text)) terms.push({ text, prefix, negated })
  }
  return terms
}

/** `"te""xt"` or `"text"*`: an FTS5 string literal, so the content is never parsed as syntax. */
const quote = (t: Term) => `"${t.text.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`

/** The FTS5 expressions for a user query; both null when it has no usable term (the list ignores `q` then). */
export function translateSearch(input: string): FtsQuery {
  const terms = parseSearchTerms(input.slice(0, 500)).slice(0, 32)
  const must = terms.filter((t) => !t.negated).map(quote)
  const not = terms.filter((t) => t.negated).map(quote)
  const excluded = not.length ? `(${not.join(' OR ')})` : ''
  if (must.length === 0) return { match: null, excludeOnly: excluded || null }
  const positive = `(${must.join(' AND ')})`
  return { match: excluded ? `${positive} NOT ${excluded}` : positive, excludeOnly: null }
}

// Words too common to say two titles are about the same bug.
const STOP_WORDS = new Set(
  'a an and are as at be but by can cant do does dont for from game get gets got has have i if in into is isnt it its me my no not of on or so the then there this to too was when where while with wont you your'.split(' '),
)

/**
 * The similar-report expression over titles: OR of the significant title words (letters/digits,
 * at least 2 characters, stop words dropped), or null when fewer than 3 characters of text remain
 * after trimming or no significant word is left — too little to call anything similar.
 */
export function similarTitleMatch(title: string): string | null {
  const trimmed = title.trim()
  if (trimmed.replace(/[^\p{L}\p{N}]/gu, '').length < 3) return null
  const words = [...new Set(trimmed.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => w.length >= 2 && !STOP_WORDS.has(w)).slice(0, 16)
  if (words.length === 0) return null
  return `title : (${words.map((w) => `"${w}"`).join(' OR ')})`
}
