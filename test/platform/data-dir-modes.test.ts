// Issue 28 finding 10: under umask 022 the live data directory was 0755 and glitchbox.db and its -wal
// 0644, so any local user read webhook secrets and reporter emails. The directory is created 0700 and
// the database files 0600 whatever the umask, and a start tightens looser modes with one log line.
import { chmodSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/config'
import { rawSqlite } from '../../src/db/client'
import { buildDeps, DB_FILE } from '../../src/deps'
import { FakeClock } from '../../src/lib/clock'
import { createLogger } from '../../src/lib/logger'
import { ROOT, startServer } from '../helpers/server-process'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'

const modeOf = (path: string) => statSync(path).mode & 0o777

let root: string
afterEach(() => removeTempDir(root))

/** Builds the deps on `dataDir`, writes a row (so the WAL exists), and returns the log lines. */
function start(dataDir: string) {
  const logs: Record<string, unknown>[] = []
  const config = loadConfig({ GLITCHBOX_DATA_DIR: dataDir, GLITCHBOX_PUBLIC_URL: 'http://glitchbox.test' }, {}, '0.0.0-test')
  const deps = buildDeps(config, { clock: new FakeClock(), logger: createLogger('debug', {}, (line) => logs.push(JSON.parse(line))), transport: null })
  const sqlite = rawSqlite(deps.db)
  sqlite.run("INSERT OR REPLACE INTO server_secrets (name, value, created_at) VALUES ('probe', 'x', 0)")
  return { logs, close: () => sqlite.close(), warnings: () => logs.filter((l) => l.level === 'warn' && String(l.msg).includes('readable by other users')) }
}

describe('data directory modes', () => {
  it('a server started under umask 022 creates the directory 0700 and glitchbox.db, -wal and -shm 0600, with no warning', async () => {
    root = tempDir('modes')
    const dataDir = join(root, 'data')
    // The umask is per process (a worker thread cannot set it): the server runs under it from a launcher script.
    const launcher = join(root, 'glitchbox-umask-022')
    writeFileSync(launcher, `#!/bin/sh\numask 022\nexec "${process.execPath}" "${join(ROOT, 'src/main.ts')}" "$@"\n`, { mode: 0o700 })
    const server = await startServer({ dataDir, binary: launcher, engine: 'sqlite' })
    try {
      expect(modeOf(dataDir)).toBe(0o700)
      for (const f of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]) expect(modeOf(join(dataDir, f)), f).toBe(0o600)
    } finally {
      await server.stop()
    }
    expect(await new Response(server.proc.stdout).text()).not.toContain('readable by other users')
  })

  it('tightens a directory and database files an older version left readable, in one log line', () => {
    root = tempDir('modes')
    const dataDir = join(root, 'data')
    // An older server, still running (its -wal and -shm exist), made everything readable to others.
    const older = start(dataDir)
    chmodSync(dataDir, 0o755)
    const files = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`].map((f) => join(dataDir, f))
    for (const f of files) chmodSync(f, 0o644)

    const app = start(dataDir)
    try {
      expect(modeOf(dataDir)).toBe(0o700)
      for (const f of files) expect(modeOf(f), f).toBe(0o600)
      expect(app.warnings()).toEqual([expect.objectContaining({ tightened: [dataDir, ...files], could_not_tighten: [] })])
      // Once tightened, the next start has nothing to say.
      const again = start(dataDir)
      again.close()
      expect(again.warnings()).toEqual([])
    } finally {
      app.close()
      older.close()
    }
  })
})
