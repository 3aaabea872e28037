// GLITCHBOX_TRUST_PROXY on the real server: the mode in force is logged at start-up, and a proxy on
// the same machine (a loopback socket peer) is believed when it appends to X-Forwarded-For.
import { afterAll, describe, expect, it } from 'vitest'
import { removeTempDataDirs, startServer } from '../helpers/server-process'

afterAll(removeTempDataDirs)

/** The JSON log lines a stopped server wrote to stdout. */
const logLines = async (proc: { stdout: ReadableStream<Uint8Array> }) =>
  (await new Response(proc.stdout).text())
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: string; msg: string })

describe('GLITCHBOX_TRUST_PROXY=true on the server process', () => {
  it('logs the mode in words at start-up and believes X-Forwarded-For from a loopback peer', async () => {
    const s = await startServer({ env: { GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_LOG_LEVEL: 'info' } })
    try {
      // 12 logins a minute would pass the budget of 10 only as 12 different clients behind the local proxy.
      for (let i = 0; i < 12; i++) {
        const res = await fetch(`${s.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` },
          body: JSON.stringify({ email: `visitor${i}@example.com`, password: 'wrong-password' }),
        })
        expect(res.status).toBe(401)
      }
    } finally {
      expect(await s.stop()).toBe(0)
    }
    const messages = (await logLines(s.proc)).map((l) => l.msg)
    expect(messages).toContain('client addresses: X-Forwarded-For trusted from 1 proxy when the connection comes from a loopback, private or link-local address')
  })
})
