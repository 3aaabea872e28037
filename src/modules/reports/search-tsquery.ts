import { type FtsQuery, parseSearchTerms, similarTitleWords } from './fts-query'

/**
 * The search box's language (fts-query.ts, SEARCH_SYNTAX) for PostgreSQL: the same terms, parsed by the
 * same parser, written as `tsquery` text for `to_tsquery('simple', …)` instead of FTS5 MATCH strings.
 *
 * Both sides of the match are normalised the way FTS5's `unicode61 remove_diacritics 2` tokenizer reads
 * text: lower case, accents dropped, and every run of characters that are not letters or digits a word
 * break (SEARCH_DOCUMENT_SQL does this to the indexed text). So `title:fields` is the phrase
 * "title fields" on both engines, and nothing the user types can be tsquery syntax: each lexeme is
 * letters and digits only, quoted.
 */

/** The indexed text of a report, in SQL over `title` and `description`: how `search_document` is computed. */
export const SEARCH_DOCUMENT_EXPRESSION = `to_tsvector('simple', regexp_replace(lower(glitchbox_unaccent(coalesce(title, '') || ' ' || coalesce(description, ''))), '[^[:alnum:]]+', ' ', 'g'))`

/**
 * A report's indexed text as queries read it: the stored column `search_document` (PostgreSQL only,
 * added by POSTGRES_SEARCH_DOCUMENT_SQL). Stored rather than computed per row because a search that
 * must test rows one by one (`-crash`, or words within a facet's reports) would otherwise tokenise every
 * title and description it passes: `q=-crash` took 8.6 s at 20,000 reports that way.
 */
export const SEARCH_DOCUMENT_SQL = 'search_document'

/** A report's title as indexed text, for the similar-titles match (titles only). */
export const TITLE_DOCUMENT_SQL = `to_tsvector('simple', regexp_replace(lower(glitchbox_unaccent(coalesce(title, ''))), '[^[:alnum:]]+', ' ', 'g'))`

/** `similarTitleMatch` as tsquery text: any of the title's significant words; null when it has none. */
export function similarTitleTsquery(title: string): string | null {
  const words = [...new Set((similarTitleWords(title) ?? []).flatMap(searchWords))]
  return words.length === 0 ? null : words.map((w) => `'${w}'`).join(' | ')
}

/** Lower case, without accents, split into words of letters and digits. */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

/** One term as tsquery: a word, or a phrase of words in order; `prefix` applies to the last word. */
function lexemes(words: string[], prefix: boolean): string {
  const quoted = words.map((w, i) => `'${w}'${prefix && i === words.length - 1 ? ':*' : ''}`)
  return quoted.length === 1 ? quoted[0]! : `(${quoted.join(' <-> ')})`
}

/** The tsquery texts for a user query; both null when it has no usable term (the list ignores `q` then). */
export function translateSearchToTsquery(input: string): FtsQuery {
  const terms = parseSearchTerms(input.slice(0, 500).replace(/[\u0000-\u001f]/g, ' '))
    .slice(0, 32)
    .map((t) => ({ ...t, words: searchWords(t.text) }))
    .filter((t) => t.words.length > 0)
  const groups: (typeof terms)[] = []
  for (const t of terms.filter((t) => !t.negated)) {
    if (t.or && groups.length > 0) groups.at(-1)!.push(t)
    else groups.push([t])
  }
  const must = groups.map((g) => (g.length === 1 ? lexemes(g[0]!.words, g[0]!.prefix) : `(${g.map((t) => lexemes(t.words, t.prefix)).join(' | ')})`))
  const not = terms.filter((t) => t.negated).map((t) => lexemes(t.words, t.prefix))
  const excluded = not.length ? `(${not.join(' | ')})` : ''
  if (must.length === 0) return { match: null, excludeOnly: excluded || null }
  const positive = `(${must.join(' & ')})`
  return { match: excluded ? `${positive} & !${excluded}` : positive, excludeOnly: null }
}

/**
 * What PostgreSQL needs for the search: `unaccent` (a trusted contrib extension: a database owner may
 * create it) behind an IMMUTABLE wrapper, as index expressions require, and a GIN index over the
 * reports' document. Idempotent; applied after the migrations.
 */
export const POSTGRES_SEARCH_FUNCTIONS_SQL = [
  'CREATE EXTENSION IF NOT EXISTS unaccent',
  `CREATE OR REPLACE FUNCTION glitchbox_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$`,
]
/**
 * The stored document and its GIN index. The column is PostgreSQL's alone (SQLite searches its FTS5
 * table), so it is declared here beside the index rather than in the shared Drizzle table; Drizzle's
 * selects name their columns and never read it. The expression index it replaces goes.
 */
export const POSTGRES_SEARCH_DOCUMENT_SQL = [
  `ALTER TABLE reports ADD COLUMN IF NOT EXISTS search_document tsvector GENERATED ALWAYS AS (${SEARCH_DOCUMENT_EXPRESSION}) STORED`,
  'DROP INDEX IF EXISTS reports_search_idx',
  'CREATE INDEX IF NOT EXISTS reports_search_document_idx ON reports USING gin (search_document)',
]
