import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sdkProject } from '../sdk/sdk-helpers'
import { onSqlite } from '../helpers/pg-engine'

// Issue 31: concurrent submissions keep their guarantees (no number lost, repeated or skipped; each
// decided as if sent one by one) without one project-wide turn: on PostgreSQL, a crash waits only for
// submissions of the same crash, and a new report for the reports numbered before it.

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const submit = (key: string, title: string) => t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title, description: 'The game froze on the loading screen.', category: 'gameplay' } })

describe('turns of concurrent submissions', () => {
  it.skipIf(onSqlite)('(PostgreSQL: transactions side by side) stacks one crash while another crash is still being filed', async () => {
    const { key } = await sdkProject(t)
    const known = await submit(key, 'Boss fight crashes on phase two')
    expect(known.status).toBe(201)
    // The other crash's filing stops inside its transaction (its bug_created subscribers run there) until released.
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let reached!: () => void
    const inside = new Promise<void>((resolve) => (reached = resolve))
    t.deps.events.subscribe(async (_tx, event) => {
      if (event.type !== 'bug_created' || (event.data as { title: string }).title !== 'Inventory freezes when sorting') return
      reached()
      await held
    })
    const slow = submit(key, 'Inventory freezes when sorting')
    await inside
    try {
      // The known crash stacks meanwhile: it waits for no other crash's COMMIT.
      const again = await Promise.race([submit(key, 'Boss fight crashes on phase two'), Bun.sleep(20_000).then(() => null)])
      expect(again?.status).toBe(200)
      expect(again?.body.data).toMatchObject({ id: known.body.data.id, deduplicated: true })
    } finally {
      release()
    }
    const filed = await slow
    expect(filed.status).toBe(201)
    expect(filed.body.data.report_number).toBe(2)
  }, 60_000)

  it('numbers concurrent new reports 1…N, each listing as possible duplicates the similar reports numbered before it', async () => {
    const { key } = await sdkProject(t)
    const n = 16
    // Titles alike but for a number (not a word of their own), so every earlier report is an equal match and the newest come first.
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => submit(key, `Inventory freezes when sorting potions ${i + 1}`)))
    expect(answers.map((a) => a.status)).toEqual(Array(n).fill(201))
    const numbers = answers.map((a) => a.body.data.report_number as number)
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1))
    for (const a of answers) {
      const number = a.body.data.report_number as number
      const before = Array.from({ length: Math.min(5, number - 1) }, (_, i) => number - 1 - i)
      expect({ number, possible: a.body.data.possible_duplicates }).toEqual({ number, possible: before })
    }
  }, 60_000)
})
