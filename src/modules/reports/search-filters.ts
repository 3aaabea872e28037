import { badRequest } from '../../http/errors'

/**
 * The filters a search box can hold beside its words: `version:1.3.0 platform:Linux runtime:node browser:Chrome environment:production player:7656…
 * fingerprint:<key> error:NullReferenceException tag:level=caves is:unassigned is:regression is:escalating has:screenshot`.
 * They are taken out of `q` before the rest becomes the full-text expression (fts-query.ts), so a
 * list filtered from the box and one filtered by query parameters are the same query.
 */

/** What `q` filters on besides its words; each filter of a kind must hold (they are ANDed). */
export interface SearchFilters {
  versions: string[]
  platforms: string[]
  runtimes: string[]
  browsers: string[]
  environments: string[]
  players: string[]
  fingerprints: string[]
  errors: string[]
  /** `key=value` (report-tags.ts), as the tag's facet value. */
  tags: string[]
  unassigned: boolean
  regression: boolean
  /** The report is escalating (report-trend.ts). */
  escalating: boolean
  screenshot: boolean
}

/** The filter syntax of `q`, for the API documentation and the search-syntax popover. */
export const FILTER_SYNTAX =
  'Filters in `q` (ANDed with the words and with each other; case does not matter; a value with spaces in double quotes: `platform:"Steam Deck"`): ' +
  '`version:1.3.0`, `platform:Linux` (the player\'s operating system), `runtime:node`, `browser:Chrome` and `environment:staging` match a report with any occurrence from that game version, platform, runtime, browser or environment; `player:76561198…` one with any occurrence from that player; ' +
  '`fingerprint:<key>` the reports of that grouping key (the report\'s `fingerprint`); ' +
  '`error:NullReferenceException` an error type (read from the title and the stack trace) equal to the value or ending in it after a `.` or `::` ' +
  '(`System.NullReferenceException`); `tag:level=caves` a report with any occurrence tagged so (Sentry `tags`, the SDK\'s `metadata.tags` or `metadata.custom_fields`); ' +
  '`is:unassigned`; `is:regression` a report a newer build reopened after it was resolved (it keeps the mark once resolved again); `is:escalating` a report whose events in the last hour exceed 3 times its hourly average over the 24 hours before (and number at least 10); ' +
  '`has:screenshot` a report with any occurrence that brought a screenshot. A filter word with nothing after the colon is searched as text; `-version:…`, unknown `is:`/`has:` values and unknown filters (`foo:bar`; quote it to search it as text) are refused (400).'

const KEYS = ['version', 'platform', 'runtime', 'browser', 'environment', 'player', 'fingerprint', 'error', 'tag', 'is', 'has'] as const
type Key = (typeof KEYS)[number]

/** More filters than this in one `q` are refused: each is one more index probe per listed row. */
export const MAX_SEARCH_FILTERS = 8

const FILTER = new RegExp(`^([+-]?)(${KEYS.join('|')}):(?:"([^"]*)"?|([^\\s"]*))`, 'i')
/** A word shaped like a filter (`foo:bar`, `tags:"x y"`); not a URL, a time, a drive or `std::`, which stay text. */
const FILTER_SHAPED = /^[+-]?([a-z][a-z_]*):(?=[^\s:/\\])/i
const IS_VALUES = ['unassigned', 'regression', 'escalating'] as const

/** No filter at all. */
export const noSearchFilters = (): SearchFilters => ({ versions: [], platforms: [], runtimes: [], browsers: [], environments: [], players: [], fingerprints: [], errors: [], tags: [], unassigned: false, regression: false, escalating: false, screenshot: false })

/**
 * Splits `q` into its filters and the words left for full-text search. Quoted phrases stay words
 * (`"version:1.3"` is searched as text). Throws 400 for a negated filter, an unknown `is:` or `has:`
 * value, an unknown filter (`foo:bar`), or more than MAX_SEARCH_FILTERS filters.
 */
export function splitSearch(input: string): { filters: SearchFilters; text: string } {
  const filters = noSearchFilters()
  // The words are the input with the filters cut out, so everything else reads exactly as typed.
  let text = ''
  let kept = 0
  let count = 0
  let i = 0
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i]!)) i++
    if (i >= input.length) break
    const m = FILTER.exec(input.slice(i, i + 300))
    const value = m ? (m[3] ?? m[4] ?? '').trim() : ''
    if (m && value) {
      if (m[1] === '-') throw badRequest(`q: ${m[0]} — filters cannot be negated; leave it out or pick another value`)
      if (++count > MAX_SEARCH_FILTERS) throw badRequest(`q: at most ${MAX_SEARCH_FILTERS} filters (${KEYS.map((k) => `${k}:`).join(', ')})`)
      add(filters, m[2]!.toLowerCase() as Key, value.slice(0, 200))
      text += `${input.slice(kept, i)} `
      i += m[0].length
      kept = i
      continue
    }
    const shaped = FILTER_SHAPED.exec(input.slice(i, i + 100))
    if (shaped && !KEYS.includes(shaped[1]!.toLowerCase() as Key)) {
      throw badRequest(`q: unknown filter \`${shaped[1]}:\`; the filters are ${KEYS.map((k) => `${k}:`).join(', ')} (to search the word as text, put it in double quotes)`)
    }
    // Past a word, or a quoted phrase (an unclosed quote runs to the end): a filter inside quotes is text.
    if (input[i] === '"') {
      const end = input.indexOf('"', i + 1)
      i = end === -1 ? input.length : end + 1
    } else {
      i++
      while (i < input.length && !/\s/.test(input[i]!) && input[i] !== '"') i++
    }
  }
  text += input.slice(kept)
  return { filters, text: text.trim() }
}

function add(f: SearchFilters, key: Key, value: string): void {
  const lower = value.toLowerCase()
  switch (key) {
    case 'version':
      return void f.versions.push(value)
    case 'platform':
      return void f.platforms.push(value)
    case 'runtime':
      return void f.runtimes.push(value)
    case 'browser':
      return void f.browsers.push(value)
    case 'environment':
      return void f.environments.push(value)
    case 'player':
      return void f.players.push(value)
    case 'fingerprint':
      return void f.fingerprints.push(value)
    case 'error':
      return void f.errors.push(value)
    case 'tag': {
      const eq = value.indexOf('=')
      if (eq <= 0 || eq === value.length - 1) throw badRequest(`q: tag:${value} — say the tag's key and value, as tag:level=caves`)
      return void f.tags.push(`${value.slice(0, eq).trim()}=${value.slice(eq + 1).trim()}`)
    }
    case 'is':
      if (lower === 'unassigned') f.unassigned = true
      else if (lower === 'regression') f.regression = true
      else if (lower === 'escalating') f.escalating = true
      else throw badRequest(`q: is:${value} is not a filter; use ${IS_VALUES.map((v) => `is:${v}`).join(' or ')}`)
      return
    case 'has':
      if (lower !== 'screenshot') throw badRequest(`q: has:${value} is not a filter; use has:screenshot`)
      f.screenshot = true
  }
}

/**
 * Whether an error type answers `error:<name>`: equal to it, or ending in it after a `.` or `::`
 * (`System.NullReferenceException`, `std::out_of_range`), without regard to case.
 */
export function errorTypeMatches(type: string, name: string): boolean {
  const t = type.toLowerCase()
  const n = name.toLowerCase()
  return t === n || t.endsWith(`.${n}`) || t.endsWith(`::${n}`)
}
