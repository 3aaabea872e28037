// Rows are addressed by id under a project the caller can reach: `/projects/{mine}/templates/{theirId}`
// must never read, change or delete another studio's row. This sweep gives studio B one row of every
// kind a route addresses by id, then calls every such operation of the OpenAPI document as studio A's
// owner, on A's own project, with B's ids: nothing answers 2xx or 5xx, and B's rows are unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newId } from '../../src/lib/ids'
import { storeReviews } from '../../src/modules/integrations/store-reviews.table'
import { players } from '../../src/modules/sdk/sdk.table'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp } from '../helpers/test-app'
import { addMember } from '../team/team-helpers'
import { operationsOf } from '../fuzz/world'

const t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
afterAll(() => t.close())

let a: TestUser
let b: TestUser
let aProject: TestProject
let bProject: TestProject
const ids: Record<string, string> = {}

async function asB(method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token: b.token, body })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}

/** Everything of B's a GET can show, to compare before and after the sweep. */
async function bState() {
  const p = `/api/projects/${bProject.slug}`
  const reads = [`${p}/templates`, `${p}/custom-fields`, `${p}/bugs/1/dependencies`, `${p}/changelog`, `${p}/alerts`, `${p}/labels`, `${p}/webhooks/generic`, `${p}/integrations`, `${p}/webhooks/discord`, `${p}/players/bplayer-1`, `${p}/store-reviews`, `/api/saved-filters`, `/api/saved-views`, '/api/account/invites', '/api/account/members']
  return Promise.all(reads.map(async (path) => [path, (await t.request('GET', path, { token: b.token })).body]))
}

beforeAll(async () => {
  a = await createUser(t, { plan: 'studio' })
  b = await createUser(t, { plan: 'studio' })
  aProject = await createProject(t, a)
  bProject = await createProject(t, b)
  await createReportIn(t, aProject, { title: 'A report' })
  await createReportIn(t, bProject, { title: 'B first' })
  await createReportIn(t, bProject, { title: 'B second' })
  const p = `/api/projects/${bProject.slug}`
  ids.templateId = (await asB('POST', `${p}/templates`, { name: 'Crash', description: 'd', priority: 'high', category: 'crash', body_template: 'Steps' })).id
  ids.fieldId = (await asB('POST', `${p}/custom-fields`, { name: 'Build', field_type: 'text' })).id
  ids.depId = (await asB('POST', `${p}/bugs/1/dependencies`, { related_number: 2, relationship: 'blocks' })).id
  ids.entryId = (await asB('POST', `${p}/changelog`, { title: 'Patch 1', body: 'Fixes' })).id
  ids.ruleId = (await asB('POST', `${p}/alerts`, { metric: 'new_reports', threshold: 5, window_hours: 1 })).id
  ids.labelId = (await asB('POST', `${p}/labels`, { name: 'physics' })).id
  ids.webhookId = (await asB('POST', `${p}/webhooks/generic`, { url: 'http://127.0.0.1:9/hook' })).id
  ids.integrationId = (await asB('POST', `${p}/integrations/slack`, { name: 'B channel', secret: 'https://hooks.slack.com/services/T0000/B0000/abcdefghijklmnop' })).id
  ids.channelId = (await asB('POST', `${p}/webhooks/discord`, { webhook_url: 'https://discord.com/api/webhooks/1/abcdef', channel_name: 'bugs' })).id
  ids.filterId = (await asB('POST', '/api/saved-filters', { name: 'Mine', project_id: bProject.id, filters: { status: 'open' } })).id
  ids.viewId = (await asB('POST', '/api/saved-views', { name: 'Open', project_id: bProject.id, filters: { status: 'open' }, sort_by: 'newest' })).id
  ids.inviteId = (await asB('POST', '/api/account/invites', { email: 'new-hire@b.example' })).id
  ids.userId = (await addMember(t, b, 'member')).user.id
  const now = t.clock.now()
  ids.playerId = 'bplayer-1'
  await t.deps.db.write((q) => q.insert(players).values({ projectId: bProject.id, playerId: ids.playerId, firstSeen: now, lastSeen: now, sessionCount: 1 }))
  ids.reviewId = newId()
  await t.deps.db.write((q) => q.insert(storeReviews).values({ id: ids.reviewId, projectId: bProject.id, integrationId: ids.integrationId, provider: 'google_play', storeReviewId: 'gp-1', rating: 1, body: 'Crashes', reviewedAt: now, createdAt: now, updatedAt: now }))
  for (const [name, id] of Object.entries(ids)) if (!id) throw new Error(`no id for ${name}`)
})

describe("another studio's ids under my own project", () => {
  it('are never found: no 2xx, no 5xx, and the other studio sees its rows unchanged', async () => {
    const before = await bState()
    const { operations } = await operationsOf(t)
    const byId = operations.filter((o) => [...o.path.matchAll(/\{(\w+)\}/g)].some((m) => m[1]! in ids))
    expect(byId.length).toBeGreaterThan(40)
    const answered: string[] = []
    for (const o of byId) {
      // Slack channels and Slack integrations are B's under the same ids; A's own project and report number.
      const values: Record<string, string> = { ...ids, slug: aProject.slug, number: '1', provider: 'slack', id: 'x', name: 'x', key: 'x' }
      const path = o.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(values[n] ?? 'x')).replace('/webhooks/slack/', '/webhooks/discord/')
      const body = o.method === 'GET' || o.method === 'DELETE' ? undefined : { name: 'Taken over', title: 'Taken over', enabled: false, is_active: false, notes: 'x', role: 'admin', permissions: { 'bugs.view': true }, body: 'Reply', threshold: 1 }
      const res = await t.request(o.method, path, { token: a.token, body })
      if (res.status < 400 || res.status >= 500) answered.push(`${o.method} ${o.path} ${res.status}`)
    }
    expect(answered).toEqual([])
    expect(await bState()).toEqual(before)
  })
})
