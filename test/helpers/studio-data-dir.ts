import { loadConfig } from '../../src/config/config'
import { closeDb } from '../../src/db/client'
import { buildDeps } from '../../src/deps'
import { silentLogger } from '../../src/lib/logger'
import { createProject, createUser } from './fixtures'
import { engineEnv, tempDataDir } from './server-process'
import type { TestApp } from './test-app'

/** A data directory holding a Studio-plan owner and one project, for a server process to start on. */
export async function studioDataDir() {
  const dataDir = tempDataDir()
  // In the suite's PostgreSQL mode, the directory's own database (the one a server started on it uses).
  const deps = buildDeps(loadConfig({ GLITCHBOX_DATA_DIR: dataDir, ...(await engineEnv(dataDir)) }), { logger: silentLogger })
  const t = { deps, clock: deps.clock } as unknown as TestApp
  const owner = await createUser(t, { plan: 'studio' })
  const project = await createProject(t, owner)
  await closeDb(deps.db)
  return { dataDir, project, owner, token: owner.token }
}
