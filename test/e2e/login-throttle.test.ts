// The per-account login lockout lives in the database: a restart does not hand an attacker a fresh
// set of guesses. The server trusts the local proxy (GLITCHBOX_TRUST_PROXY=true), and every guess
// comes from another address, as from an attacker rotating addresses.
import { afterAll, describe, expect, it } from 'vitest'
import { removeTempDataDirs, startServer, tempDataDir } from '../helpers/server-process'

afterAll(removeTempDataDirs)

const env = { GLITCHBOX_TRUST_PROXY: 'true' }
const EMAIL = 'owner@example.com'
const PASSWORD = 'correct-horse-battery'

let address = 0
const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${++address}` },
    body: JSON.stringify(body),
  })

describe('per-account login throttling on the server process', () => {
  it('keeps an account locked across a restart', async () => {
    const dataDir = tempDataDir()
    const first = await startServer({ dataDir, env })
    try {
      expect((await post(first.url, '/api/auth/signup', { email: EMAIL, password: PASSWORD })).status).toBe(201)
      for (let i = 0; i < 10; i++) expect((await post(first.url, '/api/auth/login', { email: EMAIL, password: `guess-${i}` })).status).toBe(401)
    } finally {
      expect(await first.stop()).toBe(0)
    }
    const second = await startServer({ dataDir, env })
    try {
      const locked = await post(second.url, '/api/auth/login', { email: EMAIL, password: PASSWORD })
      expect(locked.status).toBe(429)
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800)
      expect((await locked.json()).error).toMatch(/^too many failed sign-ins for this account/)
    } finally {
      await second.stop()
    }
  })
})
