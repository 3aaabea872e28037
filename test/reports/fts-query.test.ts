import { Database } from 'bun:sqlite'
import { describe, expect, it } from 'vitest'
import { similarTitleMatch, translateSearch } from '../../src/modules/reports/fts-query'

// A real FTS5 table with the production tokenizer, to prove every translation runs and finds the right rows.
const db = new Database(':memory:')
db.exec(`CREATE VIRTUAL TABLE f USING fts5(title, description, tokenize='unicode61 remove_diacritics 2')`)
const docs: [number, string, string][] = [
  [1, 'Crash on load', 'The game crashes when loading the save'],
  [2, 'Audio glitch in menu', 'Music stutters, no crash'],
  [3, 'Texture flicker', 'Shadows flicker near water and lava'],
  [4, 'Crash in boss fight', 'Segfault at the dragon boss, audio cuts out'],
  [5, 'title: fields and NEAR stuff', 'and or not near'],
  [6, 'Café menu crash', 'Résumé button does nothing'],
]
for (const d of docs) db.query('INSERT INTO f(rowid, title, description) VALUES (?, ?, ?)').run(...d)

/** Row ids the list would find for `q` (null: q is ignored). */
function search(q: string): number[] | null {
  const { match, excludeOnly } = translateSearch(q)
  if (match) return db.query<{ rowid: number }, [string]>('SELECT rowid FROM f WHERE f MATCH ? ORDER BY rowid').all(match).map((r) => r.rowid)
  if (excludeOnly) {
    return db
      .query<{ rowid: number }, [string]>('SELECT rowid FROM f WHERE rowid NOT IN (SELECT rowid FROM f WHERE f MATCH ?) ORDER BY rowid')
      .all(excludeOnly)
      .map((r) => r.rowid)
  }
  return null
}

describe('translateSearch: boolean syntax', () => {
  it.each([
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
  ])('%s: %s', (_name, q, expected) => {
    expect(search(q)).toEqual(expected)
  })

  it('writes OR groups inside the AND of the other terms', () => {
    expect(translateSearch('crash shadows OR "boss fight" -audio')).toEqual({ match: '("crash" AND ("shadows" OR "boss fight")) NOT ("audio")', excludeOnly: null })
  })

  it('quotes every term, so FTS operators are searched as words', () => {
    expect(translateSearch('crash -audio "boss fight" flick*')).toEqual({ match: '("crash" AND "boss fight" AND "flick"*) NOT ("audio")', excludeOnly: null })
  })
})

describe('translateSearch: hostile input never breaks the query', () => {
  it.each([
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
  ])('%s: %s', (_name, q, expected) => {
    expect(() => search(q)).not.toThrow()
    expect(search(q)).toEqual(expected)
  })

  it('bounds very long input', () => {
    const { match } = translateSearch('word '.repeat(1000))
    expect(match!.split('AND').length).toBeLessThanOrEqual(32)
    expect(() => search('word '.repeat(1000))).not.toThrow()
  })
})

describe('similarTitleMatch', () => {
  it.each([
    ['significant words, OR-ed over the title column', 'Crash on the boss fight', 'title : ("crash" OR "boss" OR "fight")'],
    ['duplicates dropped', 'crash CRASH crash', 'title : ("crash")'],
    ['fewer than 3 characters of text', ' ab ', null],
    ['punctuation does not count', '!!!a!!!', null],
    ['stop words only', 'the and of it', null],
    ['quotes and operators are plain words', 'NEAR("boss"', 'title : ("near" OR "boss")'],
  ])('%s', (_name, title, expected) => {
    expect(similarTitleMatch(title)).toBe(expected)
  })

  it('runs against FTS5 and ranks matches', () => {
    const rows = db.query<{ rowid: number }, [string]>('SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f)').all(similarTitleMatch('boss crash')!)
    expect(rows[0]!.rowid).toBe(4)
    expect(rows.map((r) => r.rowid).sort()).toEqual([1, 4, 6])
  })
})
