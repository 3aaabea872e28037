// A merge carries the links other domains keep of the merged reports (followers, dependencies,
// tracker and repository links) over to the survivor, each once (src/modules/report-admin/merge.service.ts).
import { sql, type SQL } from 'drizzle-orm'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { execute } from '../../src/db/client'
import { createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sqlRows } from '../helpers/sql-rows'
import { sdkProject } from '../sdk/sdk-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

it('moves followers, dependencies and links onto the survivor, each once, and drops dependencies among the merged reports', async () => {
  const ctx = await sdkProject(t)
  const submit = async (title: string) => (await t.request('POST', '/api/bugs/submit', { apiKey: ctx.key, body: { title, description: `${title} text` } })).body.data
  const [a, b, c, x] = [await submit('Shop crash'), await submit('Store crashes on buy'), await submit('Crash when buying'), await submit('Inventory lost')]
  const other = await createUser(t)
  const run = (query: SQL) => t.deps.db.write((q) => execute(q, query))
  await run(sql`DELETE FROM report_subscriptions`)
  // The owner follows a and b, the other user b and c: after the merge each follows a once.
  for (const [r, u] of [[a, ctx.owner.user.id], [b, ctx.owner.user.id], [b, other.user.id], [c, other.user.id]] as const) {
    await run(sql`INSERT INTO report_subscriptions (report_id, user_id, created_at) VALUES (${r.id}, ${u}, 0)`)
  }
  // b blocks a (merged together: goes); b and c both block x (one moves, one stays behind); x blocks c (moves).
  let n = 0
  const dep = (blocker: string, blocked: string) => {
    n++
    return run(sql`INSERT INTO report_dependencies (id, project_id, blocker_id, blocked_id, created_at) VALUES (${`d${n}`}, ${ctx.project.id}, ${blocker}, ${blocked}, ${n})`)
  }
  await dep(b.id, a.id)
  await dep(b.id, x.id)
  await dep(c.id, x.id)
  await dep(x.id, c.id)
  // b and c each have a repository issue: the survivor, which has none, takes one.
  for (const [r, num] of [[b, 1], [c, 2]] as const) {
    await run(sql`INSERT INTO git_issue_links (id, report_id, project_id, provider, issue_number, issue_url, issue_title, created, created_at) VALUES (${`g${num}`}, ${r.id}, ${ctx.project.id}, 'github', ${num}, 'https://example.com', 't', 0, ${num})`)
  }
  await run(sql`INSERT INTO integration_links (id, report_id, integration_id, provider, external_id, url, created_at, updated_at) VALUES ('l1', ${c.id}, NULL, 'jira', 'GB-1', 'https://example.com', 0, 0)`)

  const res = await t.request('POST', `/api/projects/${ctx.project.slug}/bugs/${a.report_number}/merge`, { token: ctx.owner.token, body: { numbers: [b.report_number, c.report_number] } })
  expect(res.status).toBe(200)
  expect((await sqlRows(t, 'SELECT user_id FROM report_subscriptions WHERE report_id = ? ORDER BY user_id', a.id)).map((r) => r.user_id)).toEqual([ctx.owner.user.id, other.user.id].sort())
  expect((await sqlRows(t, 'SELECT blocker_id, blocked_id FROM report_dependencies WHERE blocker_id = ? OR blocked_id = ? ORDER BY id', a.id, a.id))).toEqual([
    { blocker_id: a.id, blocked_id: x.id },
    { blocker_id: x.id, blocked_id: a.id },
  ])
  expect((await sqlRows(t, 'SELECT count(*) AS n FROM report_dependencies WHERE blocker_id = ? AND blocked_id = ?', b.id, a.id))[0]!.n).toBe(0)
  expect((await sqlRows(t, 'SELECT id FROM git_issue_links WHERE report_id = ?', a.id))).toEqual([{ id: 'g1' }])
  expect((await sqlRows(t, 'SELECT report_id FROM git_issue_links WHERE id = ?', 'g2'))).toEqual([{ report_id: c.id }])
  expect((await sqlRows(t, 'SELECT report_id FROM integration_links WHERE id = ?', 'l1'))).toEqual([{ report_id: a.id }])
})
