import { afterEach, expect, it } from 'vitest'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { WEBM } from '../sdk/sdk-helpers'

let t: TestApp
afterEach(() => t.close())

it('the report read counts the perf snapshots and replays the game sent with it', async () => {
  t = createTestApp()
  const owner = await createUser(t, { plan: 'self_hosted' })
  const project = await createProject(t, owner)
  const report = await createReportIn(t, project)
  const other = await createReportIn(t, project)
  const read = async () => (await t.request('GET', `/api/projects/${project.slug}/bugs/${report.reportNumber}`, { token: owner.token })).body.data.bug
  expect(await read()).toMatchObject({ perf_snapshot_count: 0, replay_count: 0 })

  const perf = (body: Record<string, unknown>) => t.request('POST', '/api/perf/snapshot', { apiKey: project.apiKey, body })
  expect((await perf({ bug_report_id: report.id, fps: 30 })).status).toBe(201)
  expect((await perf({ bug_report_id: report.id, fps: 24 })).status).toBe(201)
  expect((await perf({ bug_report_id: other.id, fps: 60 })).status).toBe(201)
  expect((await perf({ fps: 60 })).status).toBe(201)
  const form = new FormData()
  form.set('bug_report_id', report.id)
  form.set('file', new File([WEBM], 'replay.webm', { type: 'video/webm' }))
  expect((await t.request('POST', '/api/session-replays', { apiKey: project.apiKey, body: form })).status).toBe(201)

  expect(await read()).toMatchObject({ perf_snapshot_count: 2, replay_count: 1 })
})
