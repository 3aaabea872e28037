import { Database } from 'bun:sqlite'
import { describe, expect, it } from 'vitest'
import { similarTitleMatch, translateSearch } from '../../src/modules/reports/fts-query'
import { HOSTILE_CASES, SEARCH_DOCS, SYNTAX_CASES } from './search-cases'

// A real FTS5 table with the production tokenizer, to prove every translation runs and finds the right rows.
const db = new Database(':memory:')
db.exec(`CREATE VIRTUAL TABLE f USING fts5(title, description, tokenize='unicode61 remove_diacritics 2')`)

for (const d of SEARCH_DOCS) db.query('INSERT INTO f(rowid, title, description) VALUES (?, ?, ?)').run(...d)

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
  it.each(SYNTAX_CASES)('%s: %s', (_name, q, expected) => {
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
  it.each(HOSTILE_CASES)('%s: %s', (_name, q, expected) => {
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
