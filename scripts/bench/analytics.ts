/**
 * Analytics benchmark (issue 17): one project seeded with bulk SQL — at scale 1, 10M telemetry events
 * (20 names over 90 days), 1M play sessions (10 versions, 4 platforms, 100k players, ~3% crashed),
 * 1M performance snapshots (80% tied to a report) and 1M reports — then, in-process:
 *   - the retention job's daily rollup and the analytics rollup job catching up from empty;
 *   - every analytics route through `app.handle`, 30 timed runs each after 3 warm-ups: p50 and p95;
 *   - database bytes per million events (table and index pages added by the events).
 *
 *   bun scripts/bench/analytics.ts [--scale 1]     (--scale 0.1 seeds a tenth of everything)
 *   bun scripts/bench/analytics.ts --keep DIR      (seeds into DIR and keeps it)
 *   bun scripts/bench/analytics.ts --data DIR [--only churn]  (times the routes, or those whose path has the text, over a data dir seeded by --keep)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config/config'
import { rawSqlite } from '../../src/db/client'
import { buildDeps } from '../../src/deps'
import { DAY, FakeClock } from '../../src/lib/clock'
import { newId, randomBase62 } from '../../src/lib/ids'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { rollUpEvents, rollUpPerf, rollUpOccurrences, rollUpSessions } from '../../src/modules/analytics/analytics.rollup'
import { createSession } from '../../src/modules/auth/auth.sessions'
import { projects } from '../../src/modules/projects/projects.table'
import { rollUpTelemetry } from '../../src/modules/retention/retention.rollups'
import { seedReports } from './reports-seed'

const args = process.argv.slice(2)
const at = args.indexOf('--scale')
const SCALE = at === -1 ? 1 : Number(args[at + 1])
const EVENTS = Math.round(10_000_000 * SCALE)
const SESSIONS = Math.round(1_000_000 * SCALE)
const PERF = Math.round(1_000_000 * SCALE)
const REPORTS = Math.round(1_000_000 * SCALE)
const PLAYERS = Math.max(100, Math.round(100_000 * SCALE))
const SPAN = 90 * DAY

const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : null)
const reuse = flag('--data')
const keep = reuse ?? flag('--keep')
const dir = keep ?? mkdtempSync(join(tmpdir(), 'glitchbox-analytics-bench-'))
const clock = new FakeClock('2026-06-01T15:00:00Z')
const config = loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_LOG_LEVEL: 'error', GLITCHBOX_RATE_LIMIT_GLOBAL: '0' }, {}, 'bench')
const deps = buildDeps(config, { clock })
const app = createApp(deps)
const sqlite = rawSqlite(deps.db)
const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`
const pages = () => sqlite.query<{ n: number }, []>('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()').get()!.n

try {
  const now = clock.now().getTime()
  const start = now - SPAN
  const slug = 'bench-game'
  const token = reuse ? await reuseSeed() : await seed()
  console.log(`# ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, Bun ${Bun.version}, SQLite ${sqlite.query<{ v: string }, []>('select sqlite_version() v').get()!.v}${reuse ? `, data dir ${reuse}` : `, scale ${SCALE}`}`)

  /** A session of the benchmark user of a data dir seeded before. */
  async function reuseSeed() {
    const user = sqlite.query<{ id: string }, []>("SELECT id FROM users WHERE email = 'bench@example.com'").get()!
    // Data dirs seeded before the players counter existed.
    sqlite.run('UPDATE analytics_versions SET players = (SELECT count(*) FROM analytics_version_players v WHERE v.project_id = analytics_versions.project_id AND v.game_version = analytics_versions.game_version) WHERE players = 0')
    if (args.includes('--reroll-perf')) {
      // Histograms rolled up with an older rounding: count them again.
      sqlite.run("DELETE FROM analytics_perf_histogram; DELETE FROM rollup_cursors WHERE name = 'analytics_perf'")
      const t1 = performance.now()
      let rows = 0
      for (let n; (n = await rollUpPerf(deps.db)) > 0; ) rows += n
      console.log(`perf histograms rolled up again: ${rows.toLocaleString('en')} snapshots in ${secs(t1)}`)
    }
    const t2 = performance.now()
    let rows = 0
    for (let n; (n = await rollUpEvents(deps.db, new Date(now))) > 0; ) rows += n
    console.log(`analytics rollup, events since yesterday: ${rows.toLocaleString('en')} in ${secs(t2)}`)
    return createSession(deps.db, user.id, new Date())
  }

  async function seed() {
    const user = await createUserWithAccount(deps.db, { email: 'bench@example.com', name: 'Bench', passwordHash: null }, 'self_hosted', new Date(now))
    const token = await createSession(deps.db, user.id, new Date())
    const projectId = newId()
    deps.db.insert(projects).values({ id: projectId, accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench Game', slug, apiKey: `sk_live_${randomBase62(40)}`, createdAt: new Date(start), updatedAt: new Date(start) }).run()

    let t0 = performance.now()
    seedReports(sqlite, { projectId, userId: user.id, n: REPORTS, start: now - REPORTS * 1000 })
    // A fifth of the reports come from a known player; versions as the sessions name them.
    sqlite.run(`UPDATE reports SET player_id = 'player-' || (seq % ${PLAYERS}), game_version = '1.' || (seq * 10 / ${REPORTS + 1}) || '.0' WHERE seq % 5 = 0`)
    console.log(`reports: ${REPORTS.toLocaleString('en')} in ${secs(t0)}`)

    t0 = performance.now()
    sqlite.run(
      `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?1)
       INSERT INTO play_sessions (id, project_id, token, player_id, platform, game_version, started_at, ended_at, crashed, duration_sec)
       SELECT 's' || i, ?2, printf('tok-%09d', i), 'player-' || (abs(random()) % ?3), (CASE i % 4 WHEN 0 THEN 'windows' WHEN 1 THEN 'ps5' WHEN 2 THEN 'switch' ELSE 'android' END),
         '1.' || (i * 10 / (?1 + 1)) || '.0', ?4 + i * (?5 / ?1),
         CASE WHEN i % 20 = 0 THEN NULL ELSE ?4 + i * (?5 / ?1) + 900000 END, (i % 20 <> 0 AND abs(random()) % 100 < 3), CASE WHEN i % 20 = 0 THEN NULL ELSE 900 END
       FROM s`,
      [SESSIONS, projectId, PLAYERS, start, SPAN],
    )
    sqlite.run(`INSERT INTO players (project_id, player_id, name, first_seen, last_seen, session_count)
      SELECT project_id, player_id, NULL, min(started_at), max(started_at), count(*) FROM play_sessions WHERE project_id = ? GROUP BY player_id`, [projectId])
    console.log(`sessions: ${SESSIONS.toLocaleString('en')} (${PLAYERS.toLocaleString('en')} players) in ${secs(t0)}`)

    t0 = performance.now()
    const before = pages()
    const names = Array.from({ length: 20 }, (_, k) => `event_${k}`)
    for (const name of names) sqlite.run('INSERT INTO event_names (project_id, name) VALUES (?, ?)', [projectId, name])
    const firstName = sqlite.query<{ id: number }, [string]>('SELECT min(id) AS id FROM event_names WHERE project_id = ?').get(projectId)!.id
    const CHUNK = 1_000_000
    for (let from = 0; from < EVENTS; from += CHUNK) {
      const n = Math.min(CHUNK, EVENTS - from)
      sqlite.run(
        `WITH RECURSIVE s(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM s WHERE i < ?2)
         INSERT INTO events (name_id, created_at, session_token, platform, game_version, data)
         SELECT ?3 + (abs(random()) % 20), ?4 + i * (?5 / ?6), printf('tok-%09d', 1 + (i * ?7 / ?6)), 'windows', '1.' || (i * 10 / (?6 + 1)) || '.0',
           CASE WHEN i % 10 = 0 THEN '{"level":' || (i % 50) || ',"score":' || (i % 9973) || '}' END
         FROM s`,
        [from, from + n - 1, firstName, start, SPAN, EVENTS, SESSIONS],
      )
    }
    const eventBytes = pages() - before
    console.log(`events: ${EVENTS.toLocaleString('en')} in ${secs(t0)}; ${(eventBytes / (EVENTS / 1e6) / 1e6).toFixed(1)} MB per million events (table + index)`)

    t0 = performance.now()
    sqlite.run(
      `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?1)
       INSERT INTO perf_snapshots (id, project_id, report_id, fps, frame_time_ms, memory_used_mb, load_time_sec, created_at)
       SELECT 'p' || i, ?2, CASE WHEN i % 5 = 0 THEN NULL ELSE (SELECT id FROM reports WHERE seq = 1 + (i * 7919) % ?3) END,
         30 + abs(random()) % 90, 5 + (abs(random()) % 300) / 10.0, 800 + abs(random()) % 3000, CASE WHEN i % 5 = 0 THEN (abs(random()) % 1000) / 100.0 END, ?4 + i * (?5 / ?1)
       FROM s`,
      [PERF, projectId, REPORTS, start, SPAN],
    )
    console.log(`perf snapshots: ${PERF.toLocaleString('en')} in ${secs(t0)}`)

    t0 = performance.now()
    const days = await rollUpTelemetry(deps.db, { now, retainedFrom: 0, pause: async () => {} })
    console.log(`retention daily rollup (events and sessions, ${days} day-runs): ${secs(t0)}`)
    const beforeRollup = pages()
    t0 = performance.now()
    const parts = { reports: rollUpOccurrences, sessions: rollUpSessions, perf: rollUpPerf, events: (db: typeof deps.db) => rollUpEvents(db, new Date(now)) }
    for (const [part, run] of Object.entries(parts)) {
      const t1 = performance.now()
      let rows = 0
      for (let n; (n = await run(deps.db)) > 0; ) rows += n
      const s = (performance.now() - t1) / 1000
      console.log(`analytics rollup catch-up, ${part}: ${rows.toLocaleString('en')} rows in ${s.toFixed(1)} s (${Math.round(rows / s).toLocaleString('en')} rows/s)`)
    }
    console.log(`analytics rollup catch-up in all: ${secs(t0)}; rollup tables ${((pages() - beforeRollup) / 1e6).toFixed(1)} MB`)
    // Today's raw tail: a few hundred events and sessions since midnight, read from raw rows by every route.
    sqlite.run('PRAGMA optimize')
    return token
  }

  const projectId = sqlite.query<{ id: string }, [string]>('SELECT id FROM projects WHERE slug = ?').get(slug)!.id
  const someNumber = sqlite.query<{ n: number }, [string]>("SELECT report_number AS n FROM reports WHERE project_id = ? AND error_type <> '' ORDER BY seq DESC LIMIT 1").get(projectId)!.n
  const perfNumber = sqlite.query<{ n: number }, []>('SELECT r.report_number AS n FROM perf_snapshots p JOIN reports r ON r.id = p.report_id LIMIT 1').get()!.n
  const routes = [
    '/api/analytics/dashboard',
    '/api/usage',
    `/api/projects/${slug}/usage`,
    `/api/projects/${slug}/crash-analytics`,
    `/api/projects/${slug}/crash-analytics?days=90`,
    `/api/projects/${slug}/bad-deploy`,
    `/api/projects/${slug}/crash-groups`,
    `/api/projects/${slug}/release-health`,
    `/api/projects/${slug}/release-health/version?version=1.9.0`,
    `/api/projects/${slug}/regressions/detect`,
    `/api/projects/${slug}/regressions`,
    `/api/projects/${slug}/bugs/${someNumber}/triage`,
    `/api/projects/${slug}/churn-risk`,
    `/api/projects/${slug}/bugs/${perfNumber}/perf`,
    `/api/projects/${slug}/perf-summary`,
    `/api/projects/${slug}/bugs/${someNumber}/replays`,
    `/api/projects/${slug}/satisfaction`,
    `/api/projects/${slug}/players`,
    `/api/projects/${slug}/players?q=player-99&page=2`,
    `/api/projects/${slug}/players/player-7`,
    `/api/projects/${slug}/players/player-7/sessions`,
    `/api/projects/${slug}/players/player-7/bugs`,
    `/api/projects/${slug}/customers/overview`,
    `/api/projects/${slug}/events`,
    `/api/projects/${slug}/events?days=90`,
    `/api/projects/${slug}/events/summary?days=90`,
    `/api/projects/${slug}/events/event_3/details`,
    `/api/projects/${slug}/log-stack?days=90`,
  ]
  console.log('\nroute | p50 ms | p95 ms | status')
  console.log('--- | --- | --- | ---')
  const only = flag('--only')
  for (const path of routes.filter((r) => !only || r.includes(only))) {
    const once = async () => {
      const t = performance.now()
      const res = await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }))
      await res.arrayBuffer()
      return { ms: performance.now() - t, status: res.status }
    }
    for (let w = 0; w < 3; w++) await once()
    const runs = []
    let status = 0
    for (let r = 0; r < 30; r++) {
      const x = await once()
      runs.push(x.ms)
      status = x.status
    }
    runs.sort((a, b) => a - b)
    console.log(`${path.replace(`/api/projects/${slug}`, '')} | ${runs[14]!.toFixed(1)} | ${runs[Math.ceil(0.95 * 30) - 1]!.toFixed(1)} | ${status}`)
  }
  console.log(`\ndatabase file: ${(pages() / 1e6).toFixed(0)} MB`)
} finally {
  sqlite.close()
  if (!keep) rmSync(dir, { recursive: true, force: true })
}
