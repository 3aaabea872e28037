// The SDK submit load shared by the benchmarks: a studio data dir with one project, 2 KB reports
// with distinct titles, and the wrk script that sends them from distinct client IPs.
import { loadConfig } from '../../src/config/config'
import { closeDb } from '../../src/db/client'
import { buildDeps } from '../../src/deps'
import { newId, randomBase62 } from '../../src/lib/ids'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { projects } from '../../src/modules/projects/projects.table'

const VOCABULARY = ('crash freeze stutter inventory boss texture audio menu lag save load level door enemy weapon shader physics ' +
  'camera player quest npc dialog cutscene checkpoint respawn minimap tooltip keybind controller vsync framerate lighting shadow ' +
  'particle collision ragdoll pathfinding spawn loot chest skill tree crafting vendor mount glider grapple ladder rope bridge cave')
  .split(' ')

/** A 2 KB report like a player's, as JSON with a `%TITLE%` slot that the Lua script fills per request. */
export function reportTemplate(): string {
  const description = 'When I open the inventory during the boss fight the game stutters and sometimes freezes completely. '
    .repeat(20)
    .slice(0, 1800)
  return JSON.stringify({ title: '%TITLE%', description, platform: 'Windows', game_version: '1.4.2', os_info: 'Windows 11 23H2', device_info: 'RTX 3060, 16 GB RAM', category: 'gameplay' })
}

/** wrk script: a distinct client IP and a distinct title (three vocabulary words, a counter and the run's `salt`) per request. */
export function submitLua(template: string, apiKey: string, salt: string): string {
  const [before, after] = template.split('%TITLE%')
  return `
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-API-Key"] = ${JSON.stringify(apiKey)}
local words = {${VOCABULARY.map((w) => JSON.stringify(w)).join(',')}}
local before = ${JSON.stringify(before)}
local after = ${JSON.stringify(after)}
local counter = 0
request = function()
  counter = counter + 1
  wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", math.floor(counter / 65536) % 256, math.floor(counter / 256) % 256, counter % 256)
  local n = #words
  local title = words[counter % n + 1] .. " " .. words[math.floor(counter / n) % n + 1] .. " " .. words[math.floor(counter / 7) % n + 1] .. " report " .. counter .. " ${salt}"
  return wrk.format(nil, nil, nil, before .. title .. after)
end
`
}

/**
 * A data directory holding a studio account with one project; returns its API key. `env`: more
 * configuration, e.g. GLITCHBOX_DATABASE_URL to seed a PostgreSQL database instead.
 */
export async function seedDataDir(dir: string, env: Record<string, string> = {}): Promise<string> {
  const deps = buildDeps(loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_LOG_LEVEL: 'warn', ...env }, {}, 'bench'))
  const now = new Date()
  const user = await createUserWithAccount(deps.db, { email: 'bench@example.com', name: 'Bench', passwordHash: null }, 'studio', now)
  const apiKey = `sk_live_${randomBase62(40)}`
  await deps.db.write((q) => q.insert(projects).values({ id: newId(), accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench', slug: 'bench', apiKey, createdAt: now, updatedAt: now }))
  await closeDb(deps.db)
  return apiKey
}
