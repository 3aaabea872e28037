// The search box's language on PostgreSQL (src/modules/reports/search-tsquery.ts): the same cases as
// FTS5 (search-cases.ts) find the same documents in a real PostgreSQL, with the index's own SQL
// (SEARCH_DOCUMENT_SQL). The translation's shape is checked on every run; the matches run in the
// suite's PostgreSQL mode (GLITCHBOX_TEST_PG, as `.ci/run` sets it).
import { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { POSTGRES_SEARCH_FUNCTIONS_SQL, SEARCH_DOCUMENT_EXPRESSION, SEARCH_DOCUMENT_SQL, translateSearchToTsquery } from '../../src/modules/reports/search-tsquery'
import { adminQuery, dropTestDatabase, testPgServer, testPgTemplate } from '../helpers/pg-engine'
import { HOSTILE_CASES, SEARCH_DOCS, SYNTAX_CASES } from './search-cases'

describe('translateSearchToTsquery', () => {
  it('writes OR groups inside the AND of the other terms, phrases with <->, prefixes with :*', () => {
    expect(translateSearchToTsquery('crash shadows OR "boss fight" -audio flick*')).toEqual({
      match: "('crash' & ('shadows' | ('boss' <-> 'fight')) & 'flick':*) & !('audio')",
      excludeOnly: null,
    })
  })

  it('keeps only letters and digits in lexemes, so input is never tsquery syntax', () => {
    expect(translateSearchToTsquery("a:b & !c | 'd' <-> e:*")).toEqual({ match: "(('a' <-> 'b') & 'c' & 'd' & 'e':*)", excludeOnly: null })
    expect(translateSearchToTsquery('-crash')).toEqual({ match: null, excludeOnly: "('crash')" })
    expect(translateSearchToTsquery('!!! ---')).toEqual({ match: null, excludeOnly: null })
  })
})

describe.skipIf(!testPgServer())('search on PostgreSQL finds what FTS5 finds', () => {
  let name: string
  let pg: SQL
  beforeAll(async () => {
    name = `${testPgTemplate()}_search_${process.pid}`
    await adminQuery(`CREATE DATABASE "${name}"`)
    pg = new SQL(`${testPgServer()}/${name}`, { max: 1 })
    for (const stmt of POSTGRES_SEARCH_FUNCTIONS_SQL) await pg.unsafe(stmt)
    await pg.unsafe(`CREATE TABLE f (id integer PRIMARY KEY, title text, description text, search_document tsvector GENERATED ALWAYS AS (${SEARCH_DOCUMENT_EXPRESSION}) STORED)`)
    for (const [id, title, description] of SEARCH_DOCS) await pg`INSERT INTO f (id, title, description) VALUES (${id}, ${title}, ${description})`
  })
  afterAll(async () => {
    await pg.close()
    await dropTestDatabase(name)
  })

  /** Row ids the list would find for `q` (null: q is ignored). */
  async function search(q: string): Promise<number[] | null> {
    const { match, excludeOnly } = translateSearchToTsquery(q)
    const query = match ?? excludeOnly
    if (!query) return null
    const rows = (await pg.unsafe(`SELECT id FROM f WHERE ${match ? '' : 'NOT '}(${SEARCH_DOCUMENT_SQL} @@ to_tsquery('simple', $1)) ORDER BY id`, [query])) as { id: number }[]
    return rows.map((r) => r.id)
  }

  it.each([...SYNTAX_CASES, ...HOSTILE_CASES])('%s: %s', async (_name, q, expected) => {
    expect(await search(q)).toEqual(expected)
  })
})
