import { afterEach, beforeEach, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sdkProject } from '../sdk/sdk-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

it("names each list row's culprit: the top in-app frame a crash was grouped on, none for a player's report (issue 29)", async () => {
  const { key, project, owner } = await sdkProject(t)
  const crash = (fn: string, file: string) => ({
    title: '[Error] NullReferenceException: Object reference not set to an instance of an object',
    description: `x\n\n--- Stack Trace ---\n  at ${fn} () in Assets/${file}:42\n  at UnityEngine.Events.InvokableCall.Invoke ()`,
    category: 'crash',
  })
  for (const body of [crash('InventoryPanel.Refresh', 'InventoryPanel.cs'), crash('Boss.Update', 'Boss.cs'), { title: 'The door on level 2 will not open', description: 'Stuck.' }]) {
    expect((await t.request('POST', '/api/bugs/submit', { apiKey: key, body })).status).toBe(201)
  }
  const bugs = (await t.request('GET', `/api/projects/${project.slug}/bugs`, { token: owner.token })).body.data.bugs
  expect(bugs.map((b: { report_number: number; culprit?: string }) => [b.report_number, b.culprit])).toEqual([
    [3, undefined],
    [2, 'Boss.Update (Boss.cs)'],
    [1, 'InventoryPanel.Refresh (InventoryPanel.cs)'],
  ])
})
