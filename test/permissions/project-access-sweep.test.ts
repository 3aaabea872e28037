// An outside QA vendor invited into a studio's account sees only the game they test (issue 25). This
// sweep limits a member holding every permission to project A, then calls every operation of the
// OpenAPI document that addresses project B, with requests B's own team would send: each answers 404
// "project not found", exactly as for a stranger, and the database is unchanged byte for byte. Every
// account-wide listing and every read of A, swept the same way, never shows B's name, slug or reports.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountMembers } from '../../src/modules/auth/accounts.table'
import { PERMISSION_KEYS } from '../../src/modules/permissions/permissions.catalog'
import { projects } from '../../src/modules/projects/projects.table'
import { createProject, createReportIn, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp } from '../helpers/test-app'
import { operationsOf, type Operation, seedWorld, validRequest, type World } from '../fuzz/world'
import { addTeammate } from '../projects/team-helpers'
import { onSqlite } from '../helpers/pg-engine'
import { sqlRows } from '../helpers/sql-rows'

const everything = Object.fromEntries(PERMISSION_KEYS.map((k) => [k, true]))
const B_NAME = 'Brimstone Kart'
const B_TITLE = 'Crash in the shadows'

const t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
let w: World
let a: TestProject
let vendor: TestUser
let operations: Operation[]
afterAll(() => t.close())

/** Every row of every table, to compare before and after. */
const tableNames = () =>
  sqlRows<{ name: string }>(t, onSqlite ? "select name from sqlite_master where type = 'table' order by name" : "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name")
const snapshot = async () => Object.fromEntries(await Promise.all((await tableNames()).map(async ({ name }) => [name, await sqlRows(t, `select * from "${name}"`)])))

/** What must never reach the vendor: B's name, its slug and its report's title. */
const leakIn = (body: unknown) => {
  const text = JSON.stringify(body)
  return [B_NAME, w.project.slug, B_TITLE].filter((s) => text.includes(s))
}

beforeAll(async () => {
  w = await seedWorld(t)
  await t.deps.db.write((q) => q.update(projects).set({ name: B_NAME }).where(eq(projects.id, w.project.id)))
  a = await createProject(t, w.owner, { name: 'Aurora Racer' })
  await createReportIn(t, a, { title: 'Aurora drifts through the wall', playerId: 'p-a' })
  vendor = await addTeammate(t, w.owner, { overrides: everything })
  const limited = await t.request('PATCH', `/api/account/members/${vendor.user.id}`, { token: w.owner.token, body: { project_access: [a.id] } })
  expect(limited.status).toBe(200)
  operations = (await operationsOf(t)).operations
})

/** The operations a session reaches through project B's slug. */
const bOperations = () => operations.filter((o) => o.path.startsWith('/api/projects/{slug}') && o.op.security?.length)

async function sweepB(token: string) {
  const answers: { op: string; status: number; error: unknown }[] = []
  for (const o of bOperations()) {
    const req = validRequest(w, o)
    const res = await t.request(o.method, req.path, { token, body: req.body })
    answers.push({ op: `${o.method} ${o.path}`, status: res.status, error: res.body?.error })
  }
  return answers
}

describe('a member limited to project A', () => {
  it("gets 404 \"project not found\" on every operation of project B, and nothing changes", { timeout: 60_000 }, async () => {
    expect(bOperations().length).toBeGreaterThan(150)
    const before = await snapshot()
    const answers = await sweepB(vendor.token)
    expect(answers.filter((x) => x.status !== 404 || x.error !== 'project not found')).toEqual([])
    expect(await snapshot()).toEqual(before)
  })

  it('reaches the same saved filters and views of project B no more than its routes', async () => {
    for (const path of ['/api/saved-filters', '/api/saved-views']) {
      const res = await t.request('POST', path, { token: vendor.token, body: { name: 'Peek', project_id: w.project.id, filters: { status: 'open' } } })
      expect([path, res.status, res.body.error]).toEqual([path, 404, 'project not found'])
    }
  })

  it("sees none of B's name, slug or reports in any account-wide read or any read of project A", { timeout: 60_000 }, async () => {
    const reads = operations.filter((o) => o.method === 'GET' && o.path.startsWith('/api/') && !/^\/api\/(tracker|roadmap|branding|files|bugs)\//.test(o.path) && !/^\/api\/\{dsnId\}/.test(o.path))
    const aWorld: World = { ...w, params: { ...w.params, slug: a.slug, number: '1', playerId: 'p-a' } }
    const leaks: string[] = []
    let answered = 0
    for (const o of reads) {
      const req = validRequest(aWorld, o)
      const res = await t.request('GET', `${req.path}${o.path.endsWith('/release-health/version') ? '?version=1.0.0' : ''}`, { token: vendor.token })
      expect(res.status, `GET ${req.path}`).toBeLessThan(500)
      if (res.status === 200) answered++
      const found = leakIn(res.body)
      if (found.length) leaks.push(`GET ${o.path}: ${found.join(', ')}`)
    }
    expect(leaks).toEqual([])
    expect(answered).toBeGreaterThan(70)
  })

  it('lists only A in the project list, the account, the analytics dashboard and the data export', async () => {
    const get = async (path: string) => (await t.request('GET', path, { token: vendor.token })).body.data
    expect((await get('/api/projects')).map((p: { name: string }) => p.name)).toEqual(['Aurora Racer'])
    const account = await get('/api/account')
    expect(account.projects.map((p: { name: string }) => p.name)).toEqual(['Aurora Racer'])
    expect(account.your_project_access).toEqual([a.id])
    const dashboard = await get('/api/analytics/dashboard')
    expect([dashboard.projects, dashboard.crash_free.map((p: { name: string }) => p.name)]).toEqual([1, ['Aurora Racer']])
    expect(dashboard.by_status.open).toBe(1)
    const exported = await get('/api/account/export')
    expect(exported.projects.filter((p: { account_id: string }) => p.account_id === w.owner.account.id).map((p: { name: string }) => p.name)).toEqual(['Aurora Racer'])
    expect((await get('/api/permissions')).project_access).toEqual([a.id])
    // The owner still sees both.
    const owners = (await t.request('GET', '/api/projects', { token: w.owner.token })).body.data.map((p: { name: string }) => p.name)
    expect(owners.sort()).toEqual(['Aurora Racer', B_NAME])
  })

  it('reaches B again once the limit is lifted: the 404s came from the limit, not from the requests', { timeout: 60_000 }, async () => {
    await t.deps.db.write((q) => q.update(accountMembers).set({ projectIds: null }).where(eq(accountMembers.userId, vendor.user.id)))
    const answers = await sweepB(vendor.token)
    expect(answers.filter((x) => x.error === 'project not found')).toEqual([])
    // Many succeed; the others are refused by their handler (a row an earlier request deleted, a placeholder id).
    expect(answers.filter((x) => x.status < 300).length).toBeGreaterThan(60)
  })
})
