/**
 * Turns what a user types in the search box into FTS5 MATCH expressions that can never be a syntax
 * error: every term is emitted as a double-quoted FTS5 string, so operators (`AND`, `NEAR(`),
 * column filters (`title:`) and stray quotes or stars in the input are searched as plain words.
 * The one operator taken from the input is `OR`, and only as the translator writes it.
 */

/** The user syntax of `q`, for the API documentation. */
export const SEARCH_SYNTAX =
  'Full-text search over title and description. Words must all match (`crash boss`); `+word` is the same; `-word` excludes; ' +
  '`"exact phrase"`; `prefix*`; `OR` in capitals between two words or phrases matches either (`shadows OR crash`, ' +
  '`crash "boss fight" OR "final boss"`): it binds tighter than the implicit AND, and elsewhere (first, last, next to a `-word`) ' +
  'it is the word "or". A `q` with only `-words` lists the reports without them. Any other character is searched as text.'

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
  /** Joined to the term before it by OR (both positive). */
  or: boolean
}

// A term that holds no letter or digit would tokenize to nothing; FTS5 would silently match nothing.
const USABLE = /[\p{L}\p{N}]/u

/** Splits the input into terms, honouring quotes (an unclosed quote runs to the end), +/- markers and `OR` between two positive terms. */
export function parseSearchTerms(input: string): Term[] {
  const tokens: (Term & { bareOr: boolean })[] = []
  let i = 0
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i]!)) i++
    if (i >= input.length) break
    const marked = input[i] === '+' || input[i] === '-'
    let negated = false
    while (input[i] === '+' || input[i] === '-') negated = input[i++] === '-'
    let text: string
    let prefix = false
    let bareOr = false
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
      bareOr = !marked && text === 'OR'
      prefix = /\*+$/.test(text)
      text = text.replace(/\*+/g, ' ').trim()
    }
    if (USABLE.test(text)) tokens.push({ text, prefix, negated, or: false, bareOr })
  }
  const terms: Term[] = []
  for (let k = 0; k < tokens.length; k++) {
    const { bareOr, ...term } = tokens[k]!
    const prev = terms.at(-1)
    const next = tokens[k + 1]
    // An OR between two positive terms joins them; anywhere else it is the word "or".
    if (bareOr && prev && !prev.negated && next && !next.bareOr && !next.negated) next.or = true
    else terms.push(term)
  }
  return terms
}

/** `"te""xt"` or `"text"*`: an FTS5 string literal, so the content is never parsed as syntax. */
const quote = (t: Term) => `"${t.text.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`

/** The FTS5 expressions for a user query; both null when it has no usable term (the list ignores `q` then). */
export function translateSearch(input: string): FtsQuery {
  // FTS5 reads its query as a C string: a NUL inside a quoted term ends it ("unterminated string", a 500).
  // Control characters separate words for the tokenizer anyway.
  const terms = parseSearchTerms(input.slice(0, 500).replace(/[\u0000-\u001f]/g, ' ')).slice(0, 32)
  // Positive terms in groups of alternatives: `a b OR c` is a AND (b OR c).
  const groups: Term[][] = []
  for (const t of terms.filter((t) => !t.negated)) {
    if (t.or && groups.length > 0) groups.at(-1)!.push(t)
    else groups.push([t])
  }
  const must = groups.map((g) => (g.length === 1 ? quote(g[0]!) : `(${g.map(quote).join(' OR ')})`))
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
  const words = similarTitleWords(title)
  return words && `title : (${words.map((w) => `"${w}"`).join(' OR ')})`
}

/** The significant title words `similarTitleMatch` ORs together (PostgreSQL's form: search-tsquery.ts), or null. */
export function similarTitleWords(title: string): string[] | null {
  const trimmed = title.trim()
  if (trimmed.replace(/[^\p{L}\p{N}]/gu, '').length < 3) return null
  const words = [...new Set(trimmed.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => w.length >= 2 && !STOP_WORDS.has(w)).slice(0, 16)
  return words.length === 0 ? null : words
}
