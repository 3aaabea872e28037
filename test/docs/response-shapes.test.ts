import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationDocs } from '../../src/docs/responses'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { type Operation, operationsOf, seedWorld, validRequest, type World } from '../fuzz/world'

// Bodies that make these operations succeed where the schema's minimal example would be refused.
const BODIES: Record<string, (w: World) => unknown> = {
  'POST /api/auth/signup': () => ({ email: 'new-user@example.com', password: 'long enough password', name: 'New' }),
  'POST /api/auth/login': () => ({ email: 'login@example.com', password: 'correct horse battery' }),
  'PATCH /api/auth/profile': () => ({ display_name: 'Renamed' }),
  'PATCH /api/projects/{slug}': () => ({ description: 'Changed' }),
  'PATCH /api/projects/{slug}/bugs/{number}': () => ({ priority: 'high' }),
  'PATCH /api/projects/{slug}/bugs/bulk': (w) => ({ bug_numbers: [w.report.reportNumber], priority: 'low' }),
  'DELETE /api/projects/{slug}/bugs/bulk': () => ({ bug_numbers: [999] }),
  'PATCH /api/projects/{slug}/labels/{labelId}': () => ({ color: '#112233' }),
  'POST /api/projects/{slug}/bugs/{number}/labels': (w) => ({ label_id: w.params.labelId }),
  'PUT /api/projects/{slug}/tracker-settings': () => ({ enabled: true, allow_search: true, publish: 'all' }),
  'PUT /api/projects/{slug}/roadmap-settings': () => ({ enabled: true, show_upvotes: true }),
  'PUT /api/projects/{slug}/branding': () => ({ company_name: 'Studio' }),
  'PUT /api/projects/{slug}/widget-settings': () => ({ button_text: 'Report a bug' }),
  'PATCH /api/projects/{slug}/changelog/{entryId}': () => ({ title: 'v1.1' }),
  'PUT /api/notifications/preferences': () => ({ email_weekly_digest: false }),
  'PATCH /api/account/members/{userId}': () => ({ role: 'admin' }),
  'PATCH /api/projects/{slug}/members/{userId}': () => ({ role: 'member' }),
  'PUT /api/account/members/{userId}/permissions': () => ({ permissions: { 'bugs.delete': true } }),
  'PUT /api/projects/{slug}/permissions/{userId}': () => ({ permissions: { 'bugs.delete': false } }),
  'PUT /api/projects/{slug}/permissions': (w) => ({ user_id: w.params.userId, permissions: { 'bugs.assign': true } }),
  'POST /api/projects/{slug}/bugs/{number}/satisfaction': () => ({ rating: 4, comment: 'ok' }),
  'POST /api/projects/{slug}/custom-fields': () => ({ name: 'Build', field_type: 'text' }),
  'PATCH /api/projects/{slug}/bugs/{number}/due-date': () => ({ due_date: '2027-01-01' }),
  'POST /api/bugs/{id}/attachments': () => ({ filename: 'log.txt', mime_type: 'text/plain', data: btoa('hello') }),
  'POST /api/events/track/batch': () => ({ events: [{ event_name: 'level_start' }] }),
  'POST /api/projects/{slug}/bugs/{number}/split': () => ({ occurrence_ids: [] }),
}
// Operations that would end the world the others read (session, account, project, key); they run last.
const LAST = /^(POST \/api\/auth\/logout|DELETE \/api\/auth\/account|DELETE \/api\/projects\/\{slug\}|POST \/api\/projects\/\{slug\}\/rotate-key)$/

let t: TestApp
let world: World
let operations: Operation[]
beforeAll(async () => {
  t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true', GLITCHBOX_RATE_LIMIT_GLOBAL: '0', GLITCHBOX_RATE_LIMIT_AUTH: '0', GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
  world = await seedWorld(t)
  ;({ operations } = await operationsOf(t))
  await t.request('PUT', `/api/projects/${world.project.slug}/tracker-settings`, { token: world.owner.token, body: { enabled: true, publish: 'all' } })
  await t.request('PUT', `/api/projects/${world.project.slug}/roadmap-settings`, { token: world.owner.token, body: { enabled: true } })
  const { createUser } = await import('../helpers/fixtures')
  await createUser(t, { email: 'login@example.com', password: 'correct horse battery' })
})
afterAll(() => t.close())

describe('documented response shapes', () => {
  it('match what the routes answer', async () => {
    const ordered = [...operations].sort((a, b) => Number(LAST.test(`${a.method} ${a.path}`)) - Number(LAST.test(`${b.method} ${b.path}`)) || Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
    const checked: string[] = []
    const mismatches: string[] = []
    for (const o of ordered) {
      const key = `${o.method} ${o.path}`
      const doc = operationDocs[key]
      // Undocumented operations are reported by openapi.test.ts.
      if (!doc) continue
      const r = validRequest(world, o)
      const res = await t.request(o.method, r.path, { token: r.token, apiKey: r.apiKey, body: BODIES[key]?.(world) ?? r.body })
      if (res.status >= 300) continue
      checked.push(key)
      const statuses = [doc.status ?? 200, doc.alsoStatus?.status]
      if (!statuses.includes(res.status as 200)) mismatches.push(`${key}: status ${res.status}, documented ${statuses.filter(Boolean).join('/')}`)
      if (doc.content === 'csv' || doc.content === 'file') continue
      // Plain JSON (Sentry's answers) and text answers are the body itself, not an envelope's `data`.
      const data = doc.content === 'plain-json' || doc.content === 'text' ? res.body : res.body.data
      const parsed = doc.data.safeParse(data)
      if (!parsed.success) mismatches.push(`${key}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`)
    }
    expect(mismatches).toEqual([])
    // Most operations succeed with these requests; a drop means this test stopped checking them.
    expect(checked.length).toBeGreaterThan(95)
  })
})
