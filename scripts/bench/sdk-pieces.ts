// Cost of each piece of the submit path in isolation (µs per report), on a fresh data dir, without
// the HTTP stack or event subscribers. Usage: bun scripts/bench/sdk-pieces.ts (KEEP=1 keeps the data dir;
// SEED=1000000 first bulk-loads that many reports, as reports-list.ts does, to measure at that scale).
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
import { createReport } from '../../src/modules/reports/reports.service'
import { findPossibleDuplicates } from '../../src/modules/ingest/duplicates'
import { createIngestRepository } from '../../src/modules/ingest/ingest.repository'
import { scoreSentiment } from '../../src/modules/ingest/sentiment'
import { seedReports } from './reports-seed'

const dir = mkdtempSync(join(tmpdir(), 'glitchbox-pieces-'))
const deps = buildDeps(loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_LOG_LEVEL: 'warn' }, {}, 'bench'), { logger: createLogger('warn') })
const now = new Date()
const user = await createUserWithAccount(deps.db, { email: 'b@example.com', name: 'B', passwordHash: null }, 'studio', now)
const project = { id: newId(), accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench', slug: 'bench', apiKey: `sk_live_${randomBase62(40)}`, createdAt: now, updatedAt: now }
deps.db.insert(projects).values(project).run()
const seed = Number(process.env.SEED ?? 0)
if (seed > 0) {
  const s = seedReports(rawSqlite(deps.db), { projectId: project.id, userId: user.id, n: seed, start: now.getTime() - seed * 1000 })
  console.log(`seeded ${seed.toLocaleString('en')} reports in ${s.seconds.toFixed(0)} s`)
}
// What-if measurements: EXTRA_SQL="DROP TRIGGER …;…" runs before measuring.
for (const stmt of (process.env.EXTRA_SQL ?? '').split(';').filter(Boolean)) rawSqlite(deps.db).exec(stmt)
const repo = createIngestRepository({ db: deps.db })
const words = 'crash freeze stutter inventory boss texture audio menu lag save load level door enemy weapon shader physics camera player quest npc dialog cutscene checkpoint respawn minimap tooltip keybind controller vsync framerate lighting shadow particle collision ragdoll pathfinding spawn loot chest'.split(' ')
const desc = 'When I open the inventory during the boss fight the game stutters and sometimes freezes completely. '.repeat(20).slice(0, 1800)
let n = seed
const title = () => { n++; return `${words[n % 40]} ${words[Math.floor(n / 40) % 40]} ${words[Math.floor(n / 7) % 40]} report ${n}` }
const time = async (label: string, count: number, fn: (i: number) => unknown) => {
  const t0 = performance.now()
  for (let i = 0; i < count; i++) await fn(i)
  console.log(`${label.padEnd(50)} ${(((performance.now() - t0) / count) * 1000).toFixed(1)} µs`)
}
await time('sentiment (title + 1.8 KB)', 2000, () => scoreSentiment(['Some title here', desc]))
await time('createReport, one transaction each', 2000, () => deps.db.write((tx) => createReport(deps, tx, project, { title: title(), description: desc })))
await time('createReport x32 in one transaction', 200, () => deps.db.write(async (tx) => { for (let k = 0; k < 32; k++) await createReport(deps, tx, project, { title: title(), description: desc }) }))
// The floor under createReport: its five statements (quota check and charge, report number, the
// report row with its indexes and FTS5 trigger, the activity row) as prepared statements.
const raw = rawSqlite(deps.db)
const quota = raw.prepare('SELECT plan, reports_created FROM accounts WHERE id = ?')
const charge = raw.prepare('UPDATE accounts SET reports_created = reports_created + 1 WHERE id = ?')
const number = raw.prepare('UPDATE projects SET last_report_number = last_report_number + 1, live_report_count = live_report_count + 1 WHERE id = ? RETURNING last_report_number AS n')
const insert = raw.prepare(`INSERT INTO reports (id, project_id, report_number, title, description, fingerprint, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`)
const activity = raw.prepare("INSERT INTO activity (project_id, report_id, action, created_at) VALUES (?, ?, 'created', ?)")
const preparedReport = () => {
  quota.get(project.accountId)
  charge.run(project.accountId)
  const { n } = number.get(project.id) as { n: number }
  const t = title()
  const id = newId()
  insert.get(id, project.id, n, t, desc, t.toLowerCase(), Date.now(), Date.now())
  activity.run(project.id, id, Date.now())
}
await time('same statements prepared, x32 in one tx', 200, () => raw.transaction(() => { for (let k = 0; k < 32; k++) preparedReport() })())
for (let i = 0; i < 40; i++) await deps.db.write(async (tx) => { for (let k = 0; k < 500; k++) await createReport(deps, tx, project, { title: title(), description: desc }) })
await time(`findPossibleDuplicates (${n} reports)`, 1000, () => findPossibleDuplicates(repo, project.id, title()))
// Titles built like the seeded ones: each of their words is in tens of thousands of open titles at 1M.
const seededLike = ['Crash when opening the inventory', 'Freeze during the boss arena', 'Audio dropout after pausing the world map', 'Input lag in split screen']
await time(`findPossibleDuplicates, common words (${n} reports)`, 1000, (i) => findPossibleDuplicates(repo, project.id, seededLike[i % 4]!))
if (process.env.KEEP) console.log(dir)
else rmSync(dir, { recursive: true, force: true })
