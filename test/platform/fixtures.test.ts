import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('report creation core', () => {
  it('numbers reports per project without gaps and reads the error class', async () => {
    const owner = await createUser(t)
    const a = await createProject(t, owner)
    const b = await createProject(t, owner)
    const r1 = await createReportIn(t, a, { title: '[Error] NullReferenceException: Object reference not set' })
    const r2 = await createReportIn(t, a)
    const r3 = await createReportIn(t, b)
    expect([r1.reportNumber, r2.reportNumber, r3.reportNumber]).toEqual([1, 2, 1])
    expect(r1.errorType).toBe('NullReferenceException')
    expect(r2.errorType).toBe('')
  })
})
