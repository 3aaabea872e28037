// The account's stored bytes counted on both engines (the accounts repository's count: SQL plus the
// widget background read in code), with rows written straight through the seam.
import { sql } from 'drizzle-orm'
import { afterEach, expect, it } from 'vitest'
import { execute } from '../../src/db/client'
import { recountStorage } from '../../src/modules/auth/accounts.service'
import { createProject, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
afterEach(() => t.close())

it("counts the account's screenshots and widget background once, and nobody else's files", async () => {
  t = createTestApp()
  const owner = await createUser(t, { plan: 'self_hosted' })
  const other = await createUser(t, { plan: 'self_hosted' })
  const project = await createProject(t, owner)
  const elsewhere = await createProject(t, other)
  const usage = async () => (await t.request('GET', '/api/account', { token: owner.token })).body.data.usage
  await t.deps.db.write(async (q) => {
    for (const [key, size] of [['shot-1', 100], ['shot-2', 20], ['bg-1', 3], ['theirs', 5000], ['unused', 7]] as const) {
      await execute(q, sql`INSERT INTO files (key, mime_type, size, file_name, created_at) VALUES (${key}, 'image/png', ${size}, ${key}, 0)`)
    }
    for (const [n, pid, key] of [[1, project.id, 'shot-1'], [2, project.id, 'shot-2'], [1, elsewhere.id, 'theirs']] as const) {
      await execute(q, sql`INSERT INTO reports (id, project_id, report_number, title, description, screenshot_key, created_at, updated_at) VALUES (${crypto.randomUUID()}, ${pid}, ${n}, 'Crash', 'd', ${key}, 0, 0)`)
    }
    const widget = JSON.stringify({ background_image_url: 'https://bugs.example/api/files/bg-1' })
    await execute(q, sql`INSERT INTO project_settings (project_id, kind, value, updated_at) VALUES (${project.id}, 'widget', ${widget}, 0)`)
  })
  await recountStorage(t.deps.db, owner.account.id)
  expect((await usage()).storage_bytes).toBe(123)
  // Counted once and stored: a file added by a path that does not count it shows after a recount only.
  await t.deps.db.write((q) => execute(q, sql`UPDATE files SET size = 200 WHERE key = 'shot-1'`))
  expect((await usage()).storage_bytes).toBe(123)
  await recountStorage(t.deps.db, owner.account.id)
  expect((await usage()).storage_bytes).toBe(223)
})
