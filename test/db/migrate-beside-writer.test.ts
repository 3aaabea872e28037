// Opening a database a running server writes to (`glitchbox admin …`, `glitchbox backup`, a second
// process at start-up) migrates it again: that must wait for the server's writes, never fail. A
// deferred transaction that reads and then writes (the post-migration SQL drops and creates triggers
// at every start) got SQLITE_BUSY or SQLITE_BUSY_SNAPSHOT at once when the server committed in between:
// about one migrate in five failed here beside a writer committing every millisecond.
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openSqlite } from '../../src/db/client'
import { migrate } from '../../src/db/migrate'
import { databaseParts } from '../../src/modules/registry'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'

let dir: string
afterEach(() => removeTempDir(dir))

it('migrates a database another process keeps committing to, every time (SQLite: write locks)', async () => {
  dir = tempDir('migrate-beside-writer')
  const file = join(dir, 'glitchbox.db')
  const first = openSqlite(file)
  migrate(first, databaseParts)
  first.close()
  const writer = Bun.spawn([process.execPath, new URL('../helpers/steady-writer.ts', import.meta.url).pathname, file, '2500'], { stdout: 'pipe', stderr: 'pipe' })
  await Bun.sleep(300)
  const failures: string[] = []
  let migrated = 0
  for (let i = 0; i < 40; i++) {
    const db = openSqlite(file)
    try {
      migrate(db, databaseParts)
      migrated++
    } catch (err) {
      failures.push(String((err as { code?: string }).code ?? err))
    } finally {
      db.close()
    }
  }
  const wrote = Number((await new Response(writer.stdout).text()).trim())
  expect(await writer.exited, await new Response(writer.stderr).text()).toBe(0)
  expect(failures).toEqual([])
  expect(migrated).toBe(40)
  // The writer kept committing meanwhile (else the test would not test anything).
  expect(wrote).toBeGreaterThan(100)
})
