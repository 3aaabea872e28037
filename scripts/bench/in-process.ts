// A fresh data directory with one studio-plan project, built in-process (no server, no HTTP), for
// the benchmarks that time the ingest write itself (ingest-pieces.ts, ingest-facets.ts).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/config'
import { rawSqlite } from '../../src/db/client'
import { buildDeps } from '../../src/deps'
import { newId, randomBase62 } from '../../src/lib/ids'
import { createLogger } from '../../src/lib/logger'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { projects } from '../../src/modules/projects/projects.table'

export async function inProcessProject(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `glitchbox-${name}-`))
  const deps = buildDeps(loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_LOG_LEVEL: 'warn' }, {}, 'bench'), { logger: createLogger('warn') })
  const now = new Date()
  const user = await createUserWithAccount(deps.db, { email: 'b@example.com', name: 'B', passwordHash: null }, 'studio', now)
  deps.db.insert(projects).values({ id: newId(), accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench', slug: 'bench', apiKey: `sk_live_${randomBase62(40)}`, createdAt: now, updatedAt: now }).run()
  const project = deps.db.select().from(projects).all()[0]!
  const close = () => {
    rawSqlite(deps.db).close()
    rmSync(dir, { recursive: true, force: true })
  }
  return { deps, project, sqlite: rawSqlite(deps.db), close }
}
