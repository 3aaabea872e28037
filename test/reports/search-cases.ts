// The search box's cases, shared by the FTS5 translation (fts-query.test.ts) and the PostgreSQL one
// (search-tsquery.test.ts): the same input must find the same documents on both engines.

/** Documents: id, title, description. */
export const SEARCH_DOCS: [number, string, string][] = [
  [1, 'Crash on load', 'The game crashes when loading the save'],
  [2, 'Audio glitch in menu', 'Music stutters, no crash'],
  [3, 'Texture flicker', 'Shadows flicker near water and lava'],
  [4, 'Crash in boss fight', 'Segfault at the dragon boss, audio cuts out'],
  [5, 'title: fields and NEAR stuff', 'and or not near'],
  [6, 'Café menu crash', 'Résumé button does nothing'],
]

/** The boolean syntax: name, input, ids found (null: the input is ignored). */
export const SYNTAX_CASES: [string, string, number[] | null][] = [
  ['plain words are all required', 'crash boss', [4]],
  ['+must is required', '+crash +audio', [2, 4]],
  ['-not excludes', 'crash -audio', [1, 6]],
  ['"phrase" matches words in order', '"boss fight"', [4]],
  ['"phrase" in the wrong order does not match', '"fight boss"', []],
  ['-"phrase" excludes the phrase', 'crash -"boss fight"', [1, 2, 6]],
  ['prefix*', 'flick*', [3]],
  ['+prefix* with a word', '+crash* load', [1]],
  ['matching is case and accent insensitive', 'CAFE resume', [6]],
  ['only exclusions: everything else', '-crash', [3, 5]],
  ['OR matches either word', 'shadows OR crash', [1, 2, 3, 4, 6]],
  ['OR chains', 'shadows OR segfault OR café', [3, 4, 6]],
  ['OR binds tighter than the implicit AND', 'crash "boss fight" OR load', [1, 4]],
  ['OR with an exclusion', 'audio OR lava -crash', [3]],
  ['OR between prefixes', 'flick* OR segf*', [3, 4]],
  ['lower-case or is a word', 'shadows or crash', []],
  ['a leading OR is a word', 'OR crash', []],
  ['a trailing OR is a word', 'shadows OR', []],
  ['OR next to an exclusion is a word', '-audio OR crash', []],
  ['a quoted "OR" is a word', '"OR"', [5]],
]

/** Hostile input that must never break the query. */
export const HOSTILE_CASES: [string, string, number[] | null][] = [
  ['unbalanced quote', '"boss fight', [4]],
  ['lone quote', '"', null],
  ['quotes inside a word', 'cr"ash', []],
  ['bare AND is the word "and"', 'AND', [3, 5]],
  ['AND between words', 'crash AND boss', []],
  ['NEAR(', 'NEAR(crash audio', []],
  ['star alone', '*', null],
  ['stars only', '** * ***', null],
  ['column filter', 'title:fields', [5]],
  ['column filter with braces', '{title description}: crash', []],
  ['caret and parentheses', '^crash) (audio', [2, 4]],
  ['only punctuation', '!!! ??? ---', null],
  ['plus and minus alone', '+ - +-', null],
  ['empty', '', null],
  ['SQL-looking', "'; DROP TABLE reports; --", []],
  ['embedded double quotes', 'say ""hi""', []],
  // FTS5 reads a NUL as the end of its query string ("unterminated string"); the fuzz test found it.
  ['NUL inside a word', 'cr\u0000ash', []],
  ['NUL between words', 'boss\u0000fight', [4]],
  ['NUL in a phrase', '"boss\u0000fight"', [4]],
  ['other control characters', 'crash\u0001\u001fboss', [4]],
]
