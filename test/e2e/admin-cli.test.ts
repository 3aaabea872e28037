import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { afterAll, describe, expect, it } from 'vitest'
import { VERSION } from '../../src/version'
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
      expect(created.code, created.stderr).toBe(0)
      const first = await login(s.url, 'ops@studio.example', 'first-password-1')
      expect(first.status).toBe(200)
      const { token } = (await first.json()).data

      const plan = await runCli(['admin', 'set-plan', 'ops@studio.example', 'studio'], env)
      expect(plan.code, plan.stderr).toBe(0)
      const account = await (await fetch(`${s.url}/api/account`, { headers: { authorization: `Bearer ${token}` } })).json()
      expect(account.data.plan.key ?? account.data.plan).toBe('studio')

      const reset = await runCli(['admin', 'reset-password', 'ops@studio.example'], env)
      expect(reset.code, reset.stderr).toBe(0)
      const newPassword = /new password for \S+: (\S+)/.exec(reset.stdout)![1]!
      expect((await login(s.url, 'ops@studio.example', 'first-password-1')).status).toBe(401)
      expect((await login(s.url, 'ops@studio.example', newPassword)).status).toBe(200)
      // The old session was signed out.
      expect((await fetch(`${s.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401)
    } finally {
      await s.stop()
    }
  })

  it('verifies an address on a server without SMTP, where the link only reaches the log', async () => {
    const s = await startServer()
    const env = { GLITCHBOX_DATA_DIR: s.dataDir }
    const signup = (email: string) =>
      fetch(`${s.url}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'first-password-1' }) }).then((r) => r.json())
    const me = (token: string) => fetch(`${s.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())
    try {
      expect((await signup('ops@studio.example')).data.email_verified).toBe(true)
      const artist = (await signup('artist@studio.example')).data
      expect(artist.email_verified).toBe(false)
      const verified = await runCli(['admin', 'verify', 'Artist@Studio.example'], env)
      expect([verified.code, verified.stdout.trim()]).toEqual([0, 'Artist@Studio.example is now verified'])
      expect((await me(artist.token)).data.email_verified).toBe(true)
      const unknown = await runCli(['admin', 'verify', 'ghost@studio.example'], env)
      expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'glitchbox: no user with the email ghost@studio.example'])
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

describe('glitchbox version', () => {
  it('prints the version for `version`, `--version` and `-v`, and starts nothing', async () => {
    const dataDir = `${tmpdir()}/glitchbox-version-${crypto.randomUUID()}`
    for (const args of [['version'], ['--version'], ['-v']]) {
      const r = await runCli(args, { GLITCHBOX_DATA_DIR: dataDir }, undefined, { timeoutMs: 20_000 })
      expect([r.code, r.stdout.trim()], r.stderr).toEqual([0, VERSION])
    }
    // No server ran on it: the data directory was never created.
    expect(existsSync(dataDir)).toBe(false)
  })
})
