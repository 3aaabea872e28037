import { fileURLToPath } from 'node:url'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { createTestDatabase, nextTestDatabase, TEST_SECRET_KEY, testPgServer } from './pg-engine'
import { removeTempDir, tempDir } from './temp-dirs'

export const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..')

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

const made = new Set<string>()

/** A fresh data directory (`glitchbox-e2e-…`), removed by removeTempDataDirs (`afterAll(removeTempDataDirs)` in each file that makes them). */
export function tempDataDir(): string {
  const dir = tempDir('e2e')
  made.add(dir)
  return dir
}

/** Removes every data directory tempDataDir made in this file (stop the servers on them first). */
export function removeTempDataDirs(): void {
  for (const dir of made) removeTempDir(dir)
  made.clear()
}

// In the suite's PostgreSQL mode (pg-engine.ts), a server started on a data directory gets a database
// cloned from the template, kept with the directory: a restart on it, and a CLI command naming it,
// reach the same database. The global teardown drops these databases with the template's.
const pgDatabases = new Map<string, string>()

/** The engine variables of a data directory: its PostgreSQL database in the suite's PostgreSQL mode, made on first use; none on SQLite or when `env` names a database. */
export async function engineEnv(dataDir: string | undefined, env: Record<string, string> = {}): Promise<Record<string, string>> {
  if (!testPgServer() || !dataDir || env.GLITCHBOX_DATABASE_URL !== undefined) return {}
  let url = pgDatabases.get(dataDir)
  if (!url) {
    const name = nextTestDatabase()
    await createTestDatabase(name)
    url = `${testPgServer()}/${name}`
    pgDatabases.set(dataDir, url)
  }
  return { GLITCHBOX_DATABASE_URL: url, GLITCHBOX_SECRET_KEY: TEST_SECRET_KEY }
}

/**
 * Runs `glitchbox <args>` (source via bun, or a compiled binary) to completion. With `timeoutMs`, a
 * command still running then is killed (`code` 137): for a server that should refuse to start.
 */
export async function runCli(args: string[], env: Record<string, string>, binary?: string, o: { timeoutMs?: number } = {}) {
  const cmd = binary ? [binary, ...args] : [process.execPath, join(ROOT, 'src/main.ts'), ...args]
  // A command on a server's data directory reaches the server's database (none is made for a directory no server started on).
  const engine = env.GLITCHBOX_DATA_DIR && pgDatabases.has(env.GLITCHBOX_DATA_DIR) ? await engineEnv(env.GLITCHBOX_DATA_DIR, env) : {}
  const proc = Bun.spawn(cmd, { env: { ...process.env, GLITCHBOX_LOG_LEVEL: 'warn', ...engine, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const timer = o.timeoutMs ? setTimeout(() => proc.kill(9), o.timeoutMs) : undefined
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  clearTimeout(timer)
  return { stdout, stderr, code }
}

/**
 * Starts the real server as a child process and waits until /health answers (for `startTimeoutMs`,
 * default 30 s: a start-up takes 15–20 s on a machine busy with the rest of the suite); `bunArgs` go
 * to bun (from source only). In the suite's PostgreSQL mode it runs on the data directory's database,
 * unless `engine: 'sqlite'` (a test of the SQLite files themselves).
 */
export async function startServer(o: { dataDir?: string; env?: Record<string, string>; binary?: string; bunArgs?: string[]; startTimeoutMs?: number; engine?: 'sqlite' } = {}) {
  const port = await freePort()
  const dataDir = o.dataDir ?? tempDataDir()
  const cmd = o.binary ? [o.binary, 'serve'] : [process.execPath, ...(o.bunArgs ?? []), join(ROOT, 'src/main.ts'), 'serve']
  const proc = Bun.spawn(cmd, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', GLITCHBOX_DATA_DIR: dataDir, GLITCHBOX_LOG_LEVEL: 'warn', ...(o.engine === 'sqlite' ? {} : await engineEnv(dataDir, o.env)), ...o.env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + (o.startTimeoutMs ?? 30_000)
  for (;;) {
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false)
    if (ok) break
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill(9)
      throw new Error(`server did not start: ${await new Response(proc.stderr).text()}`)
    }
    await Bun.sleep(50)
  }
  return { url, port, dataDir, proc, stop: async (signal: NodeJS.Signals | number = 'SIGTERM') => { proc.kill(signal); return proc.exited } }
}

/** Signs a studio up on a running server and creates its project through the API: the token and the project's slug. */
export async function studioOnServer(url: string, o: { email: string; password: string; project: string }): Promise<{ token: string; slug: string }> {
  const signup = await fetch(`${url}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: o.email, password: o.password, name: 'Studio' }) })
  const token = (await signup.json()).data.token as string
  const project = await fetch(`${url}/api/projects`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ name: o.project }) })
  return { token, slug: (await project.json()).data.slug as string }
}
