import { afterAll, describe, expect, it } from 'vitest'
import { removeTempDataDirs, runCli, startServer } from '../helpers/server-process'

afterAll(removeTempDataDirs)

const login = (url: string, email: string, password: string) =>
  fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })

describe('glitchbox admin on a running server', () => {
  it('creates a user, sets their plan and resets their password', async () => {
    const s = await startServer()
    const env = { GLITCHBOX_DATA_DIR: s.dataDir }
    try {
      const created = await runCli(['admin', 'create-user', 'ops@studio.example', '--password', 'first-password-1'], env)
      expect(created.code).toBe(0)
      const first = await login(s.url, 'ops@studio.example', 'first-password-1')
      expect(first.status).toBe(200)
      const { token } = (await first.json()).data

      expect((await runCli(['admin', 'set-plan', 'ops@studio.example', 'studio'], env)).code).toBe(0)
      const account = await (await fetch(`${s.url}/api/account`, { headers: { authorization: `Bearer ${token}` } })).json()
      expect(account.data.plan.key ?? account.data.plan).toBe('studio')

      const reset = await runCli(['admin', 'reset-password', 'ops@studio.example'], env)
      expect(reset.code).toBe(0)
      const newPassword = /new password for \S+: (\S+)/.exec(reset.stdout)![1]!
      expect((await login(s.url, 'ops@studio.example', 'first-password-1')).status).toBe(401)
      expect((await login(s.url, 'ops@studio.example', newPassword)).status).toBe(200)
      // The old session was signed out.
      expect((await fetch(`${s.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401)
    } finally {
      await s.stop()
    }
  })

  it('explains operator mistakes without a stack trace', async () => {
    const s = await startServer()
    try {
      const r = await runCli(['admin', 'set-plan', 'nobody@example.com', 'gold'], { GLITCHBOX_DATA_DIR: s.dataDir })
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/^glitchbox: /)
      expect(r.stderr).not.toContain('    at ')
    } finally {
      await s.stop()
    }
  })
})
