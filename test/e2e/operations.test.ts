// Running the real server process the way operators do, and the ways it went wrong (issue 21):
// a second server on a taken port or data directory, a database file broken under a running
// server, and a data directory that cannot be opened at all.
import { randomBytes } from 'node:crypto'
import { existsSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DB_FILE } from '../../src/deps'
import { onSqlite } from '../helpers/pg-engine'
import { freePort, removeTempDataDirs, runCli, startServer, tempDataDir } from '../helpers/server-process'
import { studioDataDir } from '../helpers/studio-data-dir'

afterAll(removeTempDataDirs)

/** Long enough for a server that wrongly starts to be seen running (it is then killed). */
const REFUSAL_WAIT_MS = 20_000

describe('one server per port', () => {
  it('refuses a second server on a port in use: exit 1 naming the port, nothing started in its data directory', { timeout: 60_000 }, async () => {
    const first = await startServer()
    try {
      const secondDir = tempDataDir()
      const second = await runCli(['serve'], { PORT: String(first.port), HOST: '127.0.0.1', GLITCHBOX_DATA_DIR: secondDir }, undefined, { timeoutMs: REFUSAL_WAIT_MS })
      expect(second.code).toBe(1)
      expect(second.stderr.trim()).toBe(
        `glitchbox: port ${first.port} is already in use on 127.0.0.1: another glitchbox server or another program listens there; stop it, or choose another port (PORT or --port)`,
      )
      // Refused before opening anything: no database made, no job thread started on it.
      expect(existsSync(join(secondDir, DB_FILE))).toBe(false)
      // Every connection still reaches the first server.
      for (let i = 0; i < 20; i++) expect((await fetch(`${first.url}/health`, { headers: { connection: 'close' } })).status).toBe(200)
    } finally {
      expect(await first.stop()).toBe(0)
    }
  })
})

describe('one server per data directory', () => {
  it.skipIf(!onSqlite)('refuses a second server naming the directory and the first server; CLI commands still work beside it; kill -9 frees it (SQLite: backup archives the data directory)', { timeout: 90_000 }, async () => {
    const first = await startServer()
    const env = { GLITCHBOX_DATA_DIR: first.dataDir }
    try {
      const second = await runCli(['serve'], { ...env, PORT: String(await freePort()), HOST: '127.0.0.1' }, undefined, { timeoutMs: REFUSAL_WAIT_MS })
      expect(second.code).toBe(1)
      expect(second.stderr).toContain(`glitchbox: the data directory ${first.dataDir} is in use by another glitchbox server (pid ${first.proc.pid} on `)
      const started = /started (\S+)\)/.exec(second.stderr)?.[1]
      expect(Math.abs(Date.now() - new Date(started!).getTime())).toBeLessThan(60_000)
      expect(second.stderr).not.toContain('    at ')

      // Safe beside a running server, as before.
      expect((await runCli(['admin', 'stats'], env)).code).toBe(0)
      expect((await runCli(['admin', 'create-user', 'ops@studio.example', '--password', 'first-password-1'], env)).code).toBe(0)
      const archive = join(tempDataDir(), 'backup.tar.gz')
      expect((await runCli(['backup', archive], env)).code).toBe(0)
      expect(statSync(archive).size).toBeGreaterThan(0)
    } finally {
      // Killed outright: the operating system drops the lock, nothing stale to clean up.
      await first.stop(9)
    }
    const after = await startServer({ dataDir: first.dataDir })
    expect(await after.stop()).toBe(0)
  })
})

describe('a database file broken under a running server', () => {
  it.skipIf(!onSqlite)('answers /health 503 with the reason and stays up; background loops that fail do not end the process (SQLite: the database file overwritten)', { timeout: 60_000 }, async () => {
    // A webhook receiver that holds its answer: the job thread finishes (commits) that delivery only
    // after the file is broken, so the request thread's cached pages are dropped and it reads the file.
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let deliveries = 0
    const receiver = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      async fetch() {
        deliveries++
        await held
        return new Response('ok')
      },
    })
    const { dataDir, token, project: { slug } } = await studioDataDir()
    const server = await startServer({ dataDir, env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
    try {
      const api = (method: string, path: string, body: unknown) =>
        fetch(`${server.url}/api/projects/${slug}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      expect((await api('POST', '/webhooks/generic', { url: `http://127.0.0.1:${receiver.port}/in`, event_types: 'bug_created' })).status).toBe(201)
      expect((await api('POST', '/bugs', { title: 'Crash on load', description: 'boom' })).status).toBe(201)
      for (let i = 0; i < 100 && deliveries === 0; i++) await Bun.sleep(50)
      expect(deliveries).toBe(1)

      const dbFile = join(dataDir, DB_FILE)
      writeFileSync(dbFile, randomBytes(statSync(dbFile).size))
      release()

      const answers: { status: number; body: unknown }[] = []
      const until = Date.now() + 5_000
      while (Date.now() < until) {
        const res = await fetch(`${server.url}/health`).catch(() => null)
        answers.push(res ? { status: res.status, body: await res.json() } : { status: 0, body: null })
        await Bun.sleep(250)
      }
      // Still running after 5 s (it died within a second, on a timer's uncaught read error).
      expect(server.proc.exitCode).toBeNull()
      expect(answers.length).toBeGreaterThan(10)
      for (const a of answers) expect(a).toEqual({ status: 503, body: { status: 'unhealthy', error: 'the database cannot be read: file is not a database', database: { engine: 'sqlite' } } })
      // `glitchbox healthcheck` (Docker's HEALTHCHECK) says so too.
      const check = await runCli(['healthcheck'], { PORT: String(server.port) })
      expect(check.code).toBe(1)
      expect(check.stderr).toContain('unhealthy (503: the database cannot be read: file is not a database)')
    } finally {
      release()
      await server.stop(9)
      receiver.stop(true)
    }
  })
})

describe('a data directory that cannot be opened', () => {
  it('stops start-up with the path and the cause, not a raw SQLite error', { timeout: 60_000 }, async () => {
    const dataDir = tempDataDir()
    writeFileSync(join(dataDir, DB_FILE), randomBytes(64 * 1024))
    const r = await runCli(['serve'], { GLITCHBOX_DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' }, undefined, { timeoutMs: REFUSAL_WAIT_MS })
    expect(r.code).toBe(1)
    expect(r.stderr.trim()).toBe(`glitchbox: cannot open ${join(dataDir, DB_FILE)}: the file is not a SQLite database, it was overwritten or is damaged (file is not a database)`)
  })

  it('names a data directory path that is a file', { timeout: 60_000 }, async () => {
    const file = join(tempDataDir(), 'not-a-dir')
    writeFileSync(file, 'x')
    const r = await runCli(['serve'], { GLITCHBOX_DATA_DIR: file, PORT: String(await freePort()), HOST: '127.0.0.1' }, undefined, { timeoutMs: REFUSAL_WAIT_MS })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(new RegExp(`^glitchbox: cannot open ${file}: a file of that name is in the way`))
  })
})
