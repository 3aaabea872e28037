import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { desc, sql } from 'drizzle-orm'
import { labels } from '../../src/modules/labels/labels.table'
import { createProject, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

// SQLite re-prepares a statement whose LIMIT is bound on every run (src/db/literal-limits.ts): a
// whole-number limit is written into the SQL text instead, on both the writer and the reader.
let t: TestApp
beforeEach(async () => {
  t = createTestApp({ engine: 'sqlite' })
  const owner = await createUser(t)
  const project = await createProject(t, owner)
  for (const name of ['one', 'two', 'three']) {
    const res = await t.request('POST', `/api/projects/${project.slug}/labels`, { token: owner.token, body: { name } })
    expect(res.status).toBe(201)
  }
})
afterEach(() => t.close())

describe('LIMIT written into the SQL text on SQLite', () => {
  it('writes a whole-number limit as digits, and the query answers that many rows', async () => {
    for (const run of [t.deps.db.read.bind(t.deps.db), t.deps.db.write.bind(t.deps.db)]) {
      const query = await run((q) => q.select({ name: labels.name }).from(labels).orderBy(desc(labels.name)).limit(2).toSQL())
      expect(query.sql).toMatch(/ limit 2$/)
      expect(query.params).toEqual([])
      const rows = await run((q) => q.select({ name: labels.name }).from(labels).orderBy(desc(labels.name)).limit(2))
      expect(rows.map((r) => r.name)).toEqual(['two', 'three'])
    }
  })

  it('keeps a placeholder bound, so one prepared statement serves every limit', async () => {
    const counts = await t.deps.db.read(async (q) => {
      const statement = q.select({ name: labels.name }).from(labels).orderBy(labels.name).limit(sql.placeholder('n')).prepare()
      expect(statement.getQuery().sql).toMatch(/ limit \?$/)
      return [(await statement.execute({ n: 1 })).length, (await statement.execute({ n: 3 })).length]
    })
    expect(counts).toEqual([1, 3])
  })

  it('leaves a negative limit to Drizzle, which writes none', async () => {
    const query = await t.deps.db.read((q) => q.select({ name: labels.name }).from(labels).limit(-1).toSQL())
    expect(query.sql).not.toMatch(/limit/)
  })
})
