/**
 * Workflow benchmark (issue 16): one project with N reports (default 1,000,000) in a temp data dir,
 * then times, in-process:
 *   - a 1,000-item JSON import through `app.handle` (target < 2 s), three runs (the first one reads the
 *     seeded indexes from disk: a server that has been running has them in its page cache);
 *   - the SLA breach job over 333,000 running clocks, with ~1,000 newly due (it marks 250 per part and run) and with none due (target < 100 ms);
 *   - the alert job with four rules once the hourly counts are caught up, and with 1,000 new reports to count (target < 100 ms).
 *
 *   bun scripts/bench/workflow.ts [--reports 1000000]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config/config'
import { rawSqlite } from '../../src/db/client'
import { buildDeps } from '../../src/deps'
import { FakeClock } from '../../src/lib/clock'
import { newId, randomBase62 } from '../../src/lib/ids'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { createSession } from '../../src/modules/auth/auth.sessions'
import { projects } from '../../src/modules/projects/projects.table'
import { evaluateAlerts } from '../../src/modules/workflow/alerts.jobs'
import { countNewReports } from '../../src/modules/workflow/hourly-counts'
import { markSlaBreaches } from '../../src/modules/workflow/sla.jobs'
import { mergeSearchSegments } from '../../src/modules/reports/reports.fts-merge'
import { seedReports } from './reports-seed'

const args = process.argv.slice(2)
const i = args.indexOf('--reports')
const N = i === -1 ? 1_000_000 : Number(args[i + 1])
const HOUR = 3600_000

const dir = mkdtempSync(join(tmpdir(), 'glitchbox-workflow-bench-'))
const clock = new FakeClock('2026-06-01T00:00:00Z')
const config = loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_LOG_LEVEL: 'error' }, {}, 'bench')
const deps = buildDeps(config, { clock })
const app = createApp(deps)
const sqlite = rawSqlite(deps.db)
try {
  const now = clock.now()
  const user = await createUserWithAccount(deps.db, { email: 'bench@example.com', name: 'Bench', passwordHash: null }, 'studio', now)
  const token = await createSession(deps.db, user.id, new Date())
  const projectId = newId()
  const slug = 'bench-game'
  deps.db.insert(projects).values({ id: projectId, accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench Game', slug, apiKey: `sk_live_${randomBase62(40)}`, createdAt: now, updatedAt: now }).run()
  console.log(`# ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, Bun ${Bun.version}, SQLite ${sqlite.query<{ v: string }, []>('select sqlite_version() v').get()!.v}`)
  console.log(`seeding ${N.toLocaleString('en')} reports …`)
  const seed = seedReports(sqlite, { projectId, userId: user.id, n: N, start: now.getTime() - N * 1000 })
  console.log(`seeded in ${seed.seconds.toFixed(1)} s`)
  // As a running server's merge tick would have done by now (the seed writes many small search segments).
  await mergeSearchSegments(deps)
  // 300,000 running SLA clocks spread over the next 300,000 minutes, as a busy project would have.
  sqlite.run(
    `INSERT INTO report_sla (report_id, project_id, started_at, response_due_at, resolve_due_at)
     SELECT id, project_id, ?1, ?1 + (seq % 300000) * 60000 + 60000, ?1 + (seq % 300000) * 60000 + 600000 FROM reports WHERE seq % 3 = 0`,
    [now.getTime()],
  )
  const time = async (fn: () => unknown) => {
    const t0 = performance.now()
    await fn()
    return performance.now() - t0
  }
  const ms = (x: number) => `${x.toFixed(1)} ms`

  for (let run = 1; run <= 3; run++) {
    const bugs = Array.from({ length: 1000 }, (_, k) => ({ title: `Imported crash ${run}-${k} in the shop`, description: 'From the old tracker', priority: 'high', external_id: `OLD-${run}-${k}` }))
    const t0 = performance.now()
    const res = await app.handle(new Request(`http://localhost/api/projects/${slug}/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ bugs }) }))
    const body = (await res.json()) as { data: { created: number } }
    console.log(`import 1,000 items, run ${run}: ${ms(performance.now() - t0)} (created ${body.data.created}, status ${res.status})`)
  }

  clock.advance(500 * 60_000)
  console.log(`SLA breach job, ~1,000 clocks newly past due (it marks 250 per part and run): ${ms(await time(() => markSlaBreaches(deps)))}`)
  console.log(`SLA breach job, nothing due: ${ms(await time(() => markSlaBreaches(deps)))}`)

  const metrics = ['new_reports', 'new_crash_reports', 'crash_rate', 'negative_sentiment']
  for (const metric of metrics) {
    await app.handle(new Request(`http://localhost/api/projects/${slug}/alerts`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ metric, threshold: 1_000_000, window_hours: 24 }) }))
  }
  let counted = 0
  const catchUp = await time(async () => {
    for (let n; (n = await countNewReports(deps, clock.now())) > 0; ) counted += n
  })
  console.log(`hourly counts, first catch-up over the ${counted.toLocaleString('en')} reports of the last 30 days (once after upgrading): ${ms(catchUp)}`)
  console.log(`alert job, 4 rules, counts caught up: ${ms(await time(() => evaluateAlerts(deps)))}`)
  await app.handle(new Request(`http://localhost/api/projects/${slug}/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ bugs: Array.from({ length: 1000 }, (_, k) => ({ title: `New ${k}` })) }) }))
  clock.advance(HOUR)
  console.log(`alert job, 4 rules, 1,000 new reports to count: ${ms(await time(() => evaluateAlerts(deps)))}`)
} finally {
  sqlite.close()
  rmSync(dir, { recursive: true, force: true })
}
