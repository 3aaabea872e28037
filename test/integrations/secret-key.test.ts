import { sql } from 'drizzle-orm'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config/config'
import { rowsOf } from '../../src/db/client'
import { readStoredSecret } from '../../src/modules/integrations/credentials.crypto'
import { createProject, createUser } from '../helpers/fixtures'
import { onSqlite } from '../helpers/pg-engine'
import { createTestApp, type TestApp } from '../helpers/test-app'

const KEY = Buffer.alloc(32, 7).toString('base64')
const OTHER_KEY = Buffer.alloc(32, 9).toString('base64')
const PD_KEY = 'R0UT1NGKEY0123456789abcdefABCDEF'

const apps: TestApp[] = []
const app = (env: Record<string, string> = {}) => {
  const t = createTestApp({ env })
  apps.push(t)
  return t
}
afterEach(() => {
  for (const t of apps.splice(0)) t.close()
})

/** Connects PagerDuty in a fresh project of `t`: the stored ciphertext and the connection id it is bound to. */
async function storedCredential(t: TestApp) {
  const owner = await createUser(t, { plan: 'studio' })
  const project = await createProject(t, owner)
  const res = await t.request('POST', `/api/projects/${project.slug}/integrations/pagerduty`, { token: owner.token, body: { secret: PD_KEY } })
  expect(res.status).toBe(201)
  const [row] = await t.deps.db.read((q) => rowsOf<{ secret_enc: string }>(q, sql`SELECT secret_enc FROM integrations WHERE id = ${res.body.data.id}`))
  return { id: res.body.data.id as string, enc: row.secret_enc }
}

const read = (t: TestApp, c: { id: string; enc: string }) => readStoredSecret(t.deps.secrets, c.enc, c.id, 'credential of PagerDuty', 'enter it again (PATCH secret)')

describe('GLITCHBOX_SECRET_KEY', () => {
  it('encrypts credentials so that another app with the same key and its own data directory reads them, and writes no secrets.key', async () => {
    const first = app({ GLITCHBOX_SECRET_KEY: KEY })
    const credential = await storedCredential(first)
    expect(credential.enc).not.toContain(PD_KEY)
    const second = app({ GLITCHBOX_SECRET_KEY: KEY })
    expect(second.dir).not.toBe(first.dir)
    expect(await read(second, credential)).toBe(PD_KEY)
    expect([existsSync(join(first.dir, 'secrets.key')), existsSync(join(second.dir, 'secrets.key'))]).toEqual([false, false])
  })

  it.skipIf(!onSqlite)("refuses with 400 naming the key in force when the key differs (SQLite: unset, the data directory's secrets.key)", async () => {
    const credential = await storedCredential(app({ GLITCHBOX_SECRET_KEY: KEY }))
    await expect(read(app({ GLITCHBOX_SECRET_KEY: OTHER_KEY }), credential)).rejects.toMatchObject({
      status: 400,
      message: "the stored credential of PagerDuty cannot be read with this server's GLITCHBOX_SECRET_KEY; enter it again (PATCH secret)",
    })
    const unset = app()
    await expect(read(unset, credential)).rejects.toMatchObject({ status: 400, message: expect.stringContaining("with this server's secrets.key;") })
    // Unset, the data directory's own key is made at start-up, as before.
    expect(existsSync(join(unset.dir, 'secrets.key'))).toBe(true)
  })

  it.each([
    ['16 bytes', Buffer.alloc(16, 1).toString('base64')],
    ['33 bytes', Buffer.alloc(33, 1).toString('base64')],
    ['hex, not base64', 'ab'.repeat(32)],
    ['base64 with a stray character', `${KEY.slice(0, 10)}!${KEY.slice(11)}`],
  ])('stops start-up on a key of %s, naming the variable and never showing the value', (_, value) => {
    let error: unknown
    try {
      loadConfig({ GLITCHBOX_SECRET_KEY: value })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe('invalid GLITCHBOX_SECRET_KEY=(hidden): must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)')
  })

  it('takes a key with or without its padding', () => {
    expect(loadConfig({ GLITCHBOX_SECRET_KEY: KEY }).secretKey).toBe(KEY)
    expect(loadConfig({ GLITCHBOX_SECRET_KEY: KEY.replace(/=$/, '') }).secretKey).toBe(KEY.replace(/=$/, ''))
  })
})
