/**
 * Report list benchmark (issue 4): seeds one project with N reports (default 1,000,000) in a temp
 * data dir migrated with the real migrations, then times list requests in-process through
 * `app.handle` against raw bun:sqlite running the equivalent SQL; with --http also over HTTP, the app
 * server against a bare Bun.serve answering the same raw SQL as JSON.
 *
 *   bun scripts/bench/reports-list.ts [--reports 1000000] [--iterations 200] [--http] [--plans] [--keep] [--data DIR]
 *   bun scripts/bench/reports-list.ts --pg postgres://postgres@127.0.0.1:55432 [--reports 1000000] [--iterations 200] [--http] [--plans] [--keep] [--pg-data NAME]
 *   … [--warmup 20] [--only 'TEXT|TEXT'] [--skip 'TEXT|TEXT']   (quick looks: fewer warm-up runs; only the shapes whose name contains one of the TEXTs, or none of them)
 *   … --data DIR --serve   (answers timing requests instead of timing series: the half of a paired comparison, list-paired.ts)
 *
 * With --pg (a PostgreSQL server, no database) the same reports go into a fresh database there
 * (reports-seed-pg.ts, dropped afterwards unless --keep; --pg-data NAME runs on a kept one, migrated
 * first like any database the app opens) and the app's list is timed on PostgreSQL (issue 31); the
 * raw columns are SQLite SQL and stay empty. --plans prints, on SQLite, the query plans of the raw
 * SQL; on PostgreSQL, EXPLAIN ANALYZE of every statement the app sends for one request of each shape
 * (in full for those past --plan-ms, default 10).
 *
 * "Raw" runs, with hand-written SQL on the same connection, everything the endpoint's answer needs:
 * the page, the total (the project counter, or the count bounded at 10,001 rows when filtered) and
 * the labels of the page. The ratio is app p50 / raw p50; "app-raw" is the per-request cost outside
 * those queries (routing, session and membership lookup, validation, JSON).
 */
import type { Database } from 'bun:sqlite'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config/config'
import { closeDb, rawSqlite, rowsOf } from '../../src/db/client'
import { databaseReady, pgPool } from '../../src/db/pg/client'
import { buildDeps } from '../../src/deps'
import { newId, randomBase62 } from '../../src/lib/ids'
import { createUserWithAccount } from '../../src/modules/auth/accounts.service'
import { createSession } from '../../src/modules/auth/auth.sessions'
import { projects } from '../../src/modules/projects/projects.table'
import { COUNT_CAP } from '../../src/modules/reports/reports.list'
import { FakeClock } from '../../src/lib/clock'
import { FACET } from '../../src/modules/reports/report-facets'
import { sql } from 'drizzle-orm'
import { SQL } from 'bun'
import { COMMON_TERM, RARE_TERM, SHAPES, seedReports } from './reports-seed'
import { seedReportsPg } from './reports-seed-pg'
import { quantile } from './lib'

const args = process.argv.slice(2)
const flag = (name: string) => args.includes(`--${name}`)
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(args[i + 1])
}
const N = option('reports', 1_000_000)
const ITERATIONS = option('iterations', 200)
const WARMUP = option('warmup', 20)

// --data DIR runs on a data directory a previous run kept (--keep), without seeding again.
const dataArg = args.indexOf('--data')
const reuse = dataArg === -1 ? null : args[dataArg + 1]!
const dir = reuse ?? mkdtempSync(join(tmpdir(), 'glitchbox-reports-bench-'))
const pgArg = args.indexOf('--pg')
const pgServer = pgArg === -1 ? null : args[pgArg + 1]!.replace(/\/+$/, '')
if (pgServer && reuse) throw new Error('--data reuses a SQLite data directory; with --pg use --pg-data NAME')
const pgDataArg = args.indexOf('--pg-data')
const pgReuse = pgDataArg === -1 ? null : args[pgDataArg + 1]!
const pgDatabase = pgReuse ?? `glitchbox_bench_list_${process.pid}`
const pgAdmin = pgServer ? new SQL(`${pgServer}/postgres`, { max: 1 }) : null
if (!pgReuse) await pgAdmin?.unsafe(`CREATE DATABASE "${pgDatabase}"`)
const engineEnv: Record<string, string> = pgServer
  ? { GLITCHBOX_DATABASE_URL: `${pgServer}/${pgDatabase}`, GLITCHBOX_SECRET_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64') }
  : {}
const config = loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_LOG_LEVEL: 'error', ...engineEnv }, {}, 'bench')
const now = new Date('2026-01-01T00:00:00Z')
// The app's clock at the end of the seeded reports, so sparklines read the seeded days.
const deps = buildDeps(config, { clock: new FakeClock(now) })
await databaseReady(deps.db)
const app = createApp(deps)
const pg = pgPool(deps.db)
// The SQLite handle, for the raw side, the plans and --data; null on PostgreSQL.
const sqlite = pg ? null : rawSqlite(deps.db)

const slug = 'bench-game'
let projectId: string
let token: string
let seed: { seconds: number; labelIds: string[] }
if (reuse || pgReuse) {
  const [p] = await deps.db.read((q) => rowsOf<{ id: string; created_by: string }>(q, sql`SELECT id, created_by FROM projects WHERE slug = ${slug}`))
  projectId = p!.id
  token = await createSession(deps.db, p!.created_by, new Date())
  const labelRows = await deps.db.read((q) => rowsOf<{ id: string }>(q, sql`SELECT id FROM labels WHERE project_id = ${projectId} ORDER BY name`))
  seed = { seconds: 0, labelIds: labelRows.map((l) => l.id) }
  console.log(`reusing ${pgReuse ? `PostgreSQL database ${pgReuse}` : dir}`)
} else {
  const user = await createUserWithAccount(deps.db, { email: 'bench@example.com', name: 'Bench', passwordHash: null }, 'studio', now)
  token = await createSession(deps.db, user.id, new Date())
  projectId = newId()
  const row = { id: projectId, accountId: user.currentAccountId!, createdBy: user.id, name: 'Bench Game', slug, apiKey: `sk_live_${randomBase62(40)}`, createdAt: now, updatedAt: now }
  await deps.db.write((q) => q.insert(projects).values(row))
  console.log(`seeding ${N.toLocaleString('en')} reports into ${pg ? `PostgreSQL database ${pgDatabase}` : dir} …`)
  const o = { projectId, userId: user.id, n: N, start: now.getTime() - N * 1000 }
  seed = pg ? await seedReportsPg(pg, o) : seedReports(sqlite!, o)
}
/** The first value of a portable query's first row. */
const scalar = async <T>(query: ReturnType<typeof sql>) => Object.values((await deps.db.read((q) => rowsOf<Record<string, T>>(q, query)))[0] ?? {})[0] as T
const dbBytes = Number(
  await scalar(pg ? sql`SELECT pg_database_size(current_database()) AS n` : sql`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`),
)
console.log(`seeded in ${seed.seconds.toFixed(1)} s, database ${(dbBytes / 1024 / 1024).toFixed(0)} MB`)

const COLS = `seq, id, report_number, title, status, priority, category, platform, game_version, assigned_to, is_private, error_type, source, upvotes,
  occurrence_count, player_count, first_seen, last_seen, first_version, last_version, versions, created_at, updated_at`
const LIST_COLS = COLS.replace(/\s+/g, ' ')
const R_COLS = LIST_COLS.split(', ').map((c) => `r.${c}`).join(', ')
const LIVE = `project_id = ?1 AND deleted_at IS NULL`
const fingerprint = await scalar<string>(sql`SELECT fingerprint AS f FROM reports WHERE project_id = ${projectId} AND source = 'system' ORDER BY seq DESC LIMIT 1`)
const errorTypes = (
  await deps.db.read((q) => rowsOf<{ e: string }>(q, sql`SELECT DISTINCT error_type AS e FROM reports WHERE project_id = ${projectId} AND error_type LIKE '%NullReferenceException' ORDER BY e`))
).map((r) => r.e)

interface Scenario {
  name: string
  query: string
  /** The page SQL; `?1` is the project id, `?2` the scenario parameter when there is one. */
  page: string
  /** Bounded count SQL when the list is filtered; null when the total is the project counter. */
  count: string | null
  param?: string
  /** `?3` is the lowest seq of the newest 2 × (COUNT_CAP + 1) live reports, looked up per run. */
  window?: boolean
  /** Further parameters, `?3` on. */
  more?: string[]
  /** Facet-driven lists newest first: `page` is this walk of the matching seqs (capped), and the page is read by seq. */
  walk?: boolean
}

const fts = (extra = '') => `FROM reports_fts JOIN reports ON reports.seq = reports_fts.rowid WHERE reports_fts MATCH ?2 AND ${LIVE}${extra}`
const scenarios: Scenario[] = [
  { name: 'first page, unfiltered', query: '', page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} ORDER BY seq DESC LIMIT 25`, count: null },
  {
    name: 'two filters (status=open, priority=high)',
    query: 'status=open&priority=high',
    page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} AND status = 'open' AND priority_rank = 1 ORDER BY seq DESC LIMIT 25`,
    count: `SELECT count(*) FROM (SELECT 1 FROM reports WHERE ${LIVE} AND status = 'open' AND priority_rank = 1 LIMIT ${COUNT_CAP + 1})`,
  },
  {
    name: `q rare term (${RARE_TERM})`,
    query: `q=${RARE_TERM}`,
    page: `SELECT ${LIST_COLS.split(', ').map((c) => `reports.${c}`).join(', ')} ${fts()} ORDER BY reports_fts.rowid DESC LIMIT 25`,
    count: `SELECT count(*) FROM (SELECT 1 ${fts()} LIMIT ${COUNT_CAP + 1})`,
    param: `"${RARE_TERM}"`,
  },
  {
    name: `q common term (${COMMON_TERM})`,
    query: `q=${COMMON_TERM}`,
    page: `SELECT ${LIST_COLS.split(', ').map((c) => `reports.${c}`).join(', ')} ${fts()} ORDER BY reports_fts.rowid DESC LIMIT 25`,
    count: `SELECT count(*) FROM (SELECT 1 ${fts()} LIMIT ${COUNT_CAP + 1})`,
    param: `"${COMMON_TERM}"`,
  },
  {
    name: 'label filter (~2% of reports)',
    query: `label=${seed.labelIds[0]}`,
    page: `SELECT ${LIST_COLS} FROM reports WHERE +project_id = ?1 AND deleted_at IS NULL AND seq IN (SELECT report_seq FROM report_labels WHERE label_id = ?2) ORDER BY seq DESC LIMIT 25`,
    count: `SELECT count(*) FROM (SELECT 1 FROM reports WHERE +project_id = ?1 AND deleted_at IS NULL AND seq IN (SELECT report_seq FROM report_labels WHERE label_id = ?2) ORDER BY seq DESC LIMIT ${COUNT_CAP + 1})`,
    param: seed.labelIds[0],
  },
  { name: 'sort=priority', query: 'sort=priority', page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} ORDER BY priority_rank ASC, seq DESC LIMIT 25`, count: null },
  { name: 'page 400', query: 'page=400', page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} ORDER BY seq DESC LIMIT 25 OFFSET 9975`, count: null },
  // Beyond the issue's list: the known slow shapes (a common term excluded alone; a common term under another sort).
  {
    // As the app does it: within the window of the newest 2 × (cap + 1) live reports (?3 = its lowest seq).
    name: `q -common term alone (-${COMMON_TERM})`,
    query: `q=-${COMMON_TERM}`,
    page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} AND seq >= ?3 AND seq NOT IN (SELECT rowid FROM reports_fts WHERE reports_fts MATCH ?2 AND rowid >= ?3) ORDER BY seq DESC LIMIT 25`,
    count: `SELECT count(*) FROM (SELECT 1 FROM reports WHERE ${LIVE} AND seq >= ?3 AND seq NOT IN (SELECT rowid FROM reports_fts WHERE reports_fts MATCH ?2 AND rowid >= ?3) ORDER BY seq DESC LIMIT ${COUNT_CAP + 1})`,
    param: `"${COMMON_TERM}"`,
    window: true,
  },
  {
    name: `q common term, sort=priority`,
    query: `q=${COMMON_TERM}&sort=priority`,
    page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} AND seq IN (SELECT rowid FROM reports_fts WHERE reports_fts MATCH ?2) ORDER BY priority_rank ASC, seq DESC LIMIT 25`,
    count: `SELECT count(*) FROM (SELECT 1 ${fts()} LIMIT ${COUNT_CAP + 1})`,
    param: `"${COMMON_TERM}"`,
  },
  // Issue 24: the list's filters and sorts at 1M reports.
  ...facetScenarios(),
  {
    name: 'sort=last_seen',
    query: 'sort=last_seen',
    page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} ORDER BY last_seen DESC, seq DESC LIMIT 25`,
    count: null,
  },
  {
    name: 'sort=occurrences (events)',
    query: 'sort=occurrences',
    page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} ORDER BY occurrence_count DESC, seq DESC LIMIT 25`,
    count: null,
  },
  { name: 'sort=players', query: 'sort=players', page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} ORDER BY player_count DESC, seq DESC LIMIT 25`, count: null },
  {
    name: 'is:unassigned',
    query: 'q=is:unassigned',
    page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} AND assigned_to IS NULL ORDER BY seq DESC LIMIT 25`,
    count: `SELECT count(*) FROM (SELECT 1 FROM reports WHERE ${LIVE} AND assigned_to IS NULL ORDER BY seq DESC LIMIT ${COUNT_CAP + 1})`,
  },
  {
    name: 'is:regression',
    query: 'q=is:regression',
    page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} AND regressed_in_version IS NOT NULL ORDER BY seq DESC LIMIT 25`,
    count: `SELECT count(*) FROM (SELECT 1 FROM reports WHERE ${LIVE} AND regressed_in_version IS NOT NULL ORDER BY seq DESC LIMIT ${COUNT_CAP + 1})`,
  },
  {
    name: `error:${SHAPES.error}`,
    query: `q=error:${SHAPES.error}`,
    page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} AND error_type = ?2 ORDER BY seq DESC LIMIT 25`,
    count: `SELECT count(*) FROM (SELECT 1 FROM reports WHERE ${LIVE} AND error_type = ?2 ORDER BY seq DESC LIMIT ${COUNT_CAP + 1})`,
    param: errorTypes[0],
  },
  {
    name: 'fingerprint:<a crash key>',
    query: `fingerprint=${fingerprint}`,
    page: `SELECT ${LIST_COLS} FROM reports WHERE ${LIVE} AND fingerprint = ?2 ORDER BY seq DESC LIMIT 25`,
    count: `SELECT count(*) FROM (SELECT 1 FROM reports WHERE ${LIVE} AND fingerprint = ?2 ORDER BY seq DESC LIMIT ${COUNT_CAP + 1})`,
    param: fingerprint,
  },
]

/**
 * The facet shapes as the app runs them: the facet key drives newest first, other facets are probed
 * on its report_seq before a report is read, a facet-only list is counted from the key alone; past the
 * cap under another sort, the sort's index drives and probes the facet.
 */
function facetScenarios(): Scenario[] {
  const probe = (kind: number, n: number, seq = 'f.report_seq') => `EXISTS (SELECT 1 FROM report_facets WHERE project_id = ?1 AND kind = ${kind} AND value = ?${n} AND report_seq = ${seq})`
  const key = (kind: number) => `f.project_id = ?1 AND f.kind = ${kind} AND f.value = ?2`
  const driven = (kind: number, extra = '') => `FROM report_facets f JOIN reports r ON r.seq = f.report_seq WHERE ${key(kind)} AND +r.project_id = ?1 AND r.deleted_at IS NULL${extra}`
  const keyCount = (kind: number) => `SELECT count(*) FROM (SELECT 1 FROM report_facets f WHERE ${key(kind)} ORDER BY f.report_seq DESC LIMIT ${COUNT_CAP + 1})`
  const keyWalk = (kind: number, extra = '') => `SELECT f.report_seq AS seq FROM report_facets f WHERE ${key(kind)}${extra} ORDER BY f.report_seq DESC LIMIT ${COUNT_CAP + 1}`
  const shape = (name: string, query: string, kind: number, param: string, sort?: string, sortIndexDrives = false): Scenario =>
    sort
      ? {
          name,
          query,
          page: sortIndexDrives
            ? `SELECT ${R_COLS} FROM reports r WHERE r.project_id = ?1 AND r.deleted_at IS NULL AND ${probe(kind, 2, 'r.seq')} ORDER BY ${sort}, r.seq DESC LIMIT 25`
            : `SELECT ${R_COLS} ${driven(kind)} ORDER BY ${sort}, r.seq DESC LIMIT 25`,
          count: keyCount(kind),
          param,
        }
      : { name, query, page: keyWalk(kind), count: null, param, walk: true }
  const wordSet = ' AND +f.report_seq IN (SELECT rowid FROM reports_fts WHERE reports_fts MATCH ?3)'
  return [
    shape(`version:${SHAPES.version}`, `q=version:${SHAPES.version}`, FACET.version, SHAPES.version),
    shape(`platform:${SHAPES.platform}`, `platform=${SHAPES.platform}`, FACET.platform, SHAPES.platform),
    shape('player: (a typical player)', `q=player:${SHAPES.typicalPlayer}`, FACET.player, SHAPES.typicalPlayer),
    shape('player: (the busiest player)', `q=player:${SHAPES.heavyPlayer}`, FACET.player, SHAPES.heavyPlayer),
    shape('has:screenshot', 'q=has:screenshot', FACET.screenshot, ''),
    shape(`version:${SHAPES.version}, sort=last_seen`, `q=version:${SHAPES.version}&sort=last_seen`, FACET.version, SHAPES.version, 'r.last_seen DESC', true),
    shape(`platform:${SHAPES.platform}, sort=occurrences`, `q=platform:${SHAPES.platform}&sort=occurrences`, FACET.platform, SHAPES.platform, 'r.occurrence_count DESC', true),
    shape('player: (busiest), sort=players', `q=player:${SHAPES.heavyPlayer}&sort=players`, FACET.player, SHAPES.heavyPlayer, 'r.player_count DESC'),
    {
      // The issue's example query: the version's key walk checks platform and screenshot, then the rest reads reports.
      name: 'version + platform + is:unassigned + error: + has:screenshot',
      query: `q=${encodeURIComponent(`version:${SHAPES.version} platform:${SHAPES.platform} is:unassigned error:${SHAPES.error} has:screenshot`)}`,
      page: `SELECT k.seq FROM (SELECT f.report_seq AS seq FROM report_facets f WHERE ${key(FACET.version)} AND ${probe(FACET.platform, 4)} AND ${probe(FACET.screenshot, 5)} ORDER BY f.report_seq DESC LIMIT -1) k
        JOIN reports r ON r.seq = k.seq WHERE +r.project_id = ?1 AND r.deleted_at IS NULL AND r.assigned_to IS NULL AND r.error_type = ?3 ORDER BY k.seq DESC LIMIT ${COUNT_CAP + 1}`,
      count: null,
      param: SHAPES.version,
      more: [errorTypes[0]!, SHAPES.platform, ''],
      walk: true,
    },
    {
      // A common word and a common version: the version drives (from its key alone) and checks the set of word matches.
      name: `q common term + version:${SHAPES.version}`,
      query: `q=${encodeURIComponent(`${COMMON_TERM} version:${SHAPES.version}`)}`,
      page: keyWalk(FACET.version, wordSet),
      count: null,
      param: SHAPES.version,
      more: [`"${COMMON_TERM}"`],
      walk: true,
    },
    {
      // A rare word and a common platform: the words drive and probe the platform.
      name: `q rare term + platform:${SHAPES.platform}`,
      query: `q=${encodeURIComponent(`${RARE_TERM} platform:${SHAPES.platform}`)}`,
      page: `SELECT ${R_COLS} FROM reports_fts JOIN reports r ON r.seq = reports_fts.rowid WHERE reports_fts MATCH ?2 AND ${probe(FACET.platform, 3, 'reports_fts.rowid')} AND r.project_id = ?1 AND r.deleted_at IS NULL ORDER BY reports_fts.rowid DESC LIMIT 25`,
      count: `SELECT count(*) FROM (SELECT 1 FROM reports_fts JOIN reports r ON r.seq = reports_fts.rowid WHERE reports_fts MATCH ?2 AND ${probe(FACET.platform, 3, 'reports_fts.rowid')} AND r.project_id = ?1 AND r.deleted_at IS NULL LIMIT ${COUNT_CAP + 1})`,
      param: `"${RARE_TERM}"`,
      more: [SHAPES.platform],
    },
  ]
}

/** Raw bun:sqlite doing what the endpoint does, minus HTTP, auth and JSON. */
function rawRunner(db: Database, s: Scenario) {
  const page = db.prepare(s.page)
  const count = s.count ? db.prepare(s.count) : null
  const counter = db.prepare('SELECT live_report_count FROM projects WHERE id = ?1')
  const bySeq = db.prepare(`SELECT ${LIST_COLS} FROM reports WHERE seq IN (SELECT value FROM json_each(?1)) ORDER BY seq DESC`)
  const labels = db.prepare(
    'SELECT rl.report_id, l.id, l.name, l.color FROM report_labels rl JOIN labels l ON l.id = rl.label_id WHERE rl.report_id IN (SELECT value FROM json_each(?1)) ORDER BY l.name',
  )
  const edge = db.prepare(`SELECT seq FROM reports WHERE ${LIVE} ORDER BY seq DESC LIMIT 1 OFFSET ${2 * (COUNT_CAP + 1) - 1}`)
  // The page's sparklines: rolled-up days plus the occurrences past the rollup cursor (report-daily.ts).
  const today = Math.floor(now.getTime() / 86_400_000)
  const sparks = db.prepare(`SELECT seq, day, sum(n) AS n FROM (
      SELECT report_seq AS seq, day, n FROM report_daily WHERE report_seq IN (SELECT value FROM json_each(?1)) AND day BETWEEN ${today - 13} AND ${today}
      UNION ALL
      SELECT r.seq, o.created_at / 86400000, 1 FROM report_occurrences o JOIN reports r ON r.id = o.report_id
      WHERE o.report_id IN (SELECT value FROM json_each(?2)) AND o.seq > coalesce((SELECT position FROM rollup_cursors WHERE name = 'analytics_occurrences'), 0)
        AND o.created_at >= ${(today - 13) * 86_400_000} AND o.created_at < ${(today + 1) * 86_400_000}
    ) GROUP BY seq, day`)
  return () => {
    const params: unknown[] = s.param === undefined ? [projectId] : [projectId, s.param]
    if (s.window) params.push((edge.get(projectId) as { seq: number } | null)?.seq ?? 0)
    if (s.more) params.push(...s.more)
    let rows: { id: string; seq: number }[]
    let total: unknown
    if (s.walk) {
      const seqs = page.all(...(params as [string])) as { seq: number }[]
      total = seqs.length
      rows = bySeq.all(JSON.stringify(seqs.slice(0, 25).map((r) => r.seq))) as { id: string; seq: number }[]
    } else {
      rows = page.all(...(params as [string])) as { id: string; seq: number }[]
      total = count ? count.get(...(params as [string])) : counter.get(projectId)
    }
    const ids = JSON.stringify(rows.map((r) => r.id))
    const l = labels.all(ids)
    const sp = sparks.all(JSON.stringify(rows.map((r) => r.seq)), ids)
    return [rows, total, l, sp]
  }
}

let ip = 0
const nextIp = () => `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip++ & 255}`
function appRunner(s: Scenario) {
  const url = `http://localhost/api/projects/${slug}/bugs${s.query ? `?${s.query}` : ''}`
  return async () => {
    const res = await app.handle(new Request(url, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': nextIp() } }))
    if (res.status !== 200) throw new Error(`${url} → ${res.status} ${await res.text()}`)
    return res.json()
  }
}

/** The milliseconds of `n` runs of `fn` back to back. */
async function series(fn: () => unknown, n: number): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    await fn()
    samples.push(performance.now() - t0)
  }
  return samples
}

async function time(fn: () => unknown): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < WARMUP; i++) await fn()
  // A full collection before each timed series, so a shape does not pay for the garbage of the one before.
  Bun.gc(true)
  const samples = (await series(fn, ITERATIONS)).sort((a, b) => a - b)
  return { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95) }
}

/** Plans printed in full past this execution time (ms); quicker statements get one line. */
const PLAN_MS = option('plan-ms', 10)

/**
 * PostgreSQL's plans of one request of the shape: the statements the app sends are caught on the
 * pool (Drizzle sends each through `unsafe`), then each runs again under EXPLAIN ANALYZE with its
 * parameters.
 */
async function explainPg(pool: SQL, s: Scenario) {
  const sent: { query: string; params: unknown[] }[] = []
  const unsafe = pool.unsafe.bind(pool)
  pool.unsafe = ((query: string, params?: unknown[]) => (sent.push({ query, params: params ?? [] }), unsafe(query, params))) as typeof pool.unsafe
  try {
    await appRunner(s)()
  } finally {
    pool.unsafe = unsafe
  }
  console.log(`\n${s.name}`)
  for (const { query, params } of sent) {
    const plan = ((await unsafe(`EXPLAIN (ANALYZE, BUFFERS) ${query}`, params)) as Record<string, string>[]).map((r) => Object.values(r)[0]!)
    const ms = Number(/Execution Time: ([\d.]+)/.exec(plan.at(-1) ?? '')?.[1] ?? 0)
    console.log(`  ${ms.toFixed(1)} ms  ${query.replace(/\s+/g, ' ').slice(0, 160)}`)
    if (ms >= PLAN_MS) console.log(`    params ${JSON.stringify(params).slice(0, 200)}\n${plan.map((l) => `    ${l}`).join('\n')}`)
  }
}

let server: ReturnType<typeof Bun.serve> | null = null
// The raw side over HTTP: a bare Bun.serve answering the scenario named in the path with the same
// raw SQL as JSON, so both sides pay for sockets, HTTP parsing and serialization.
let rawServer: ReturnType<typeof Bun.serve> | null = null
if (flag('http')) {
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => app.handle(req) })
  if (sqlite) {
    const runners = new Map(scenarios.map((s, i) => [String(i), rawRunner(sqlite, s)]))
    rawServer = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => Response.json(runners.get(new URL(req.url).pathname.slice(1))!()) })
  }
}

/** Closes the database and drops the PostgreSQL one unless kept: after the run, or when it fails (a list the engine cannot answer yet). */
async function dropDatabase() {
  await closeDb(deps.db)
  if (pgAdmin) {
    if (flag('keep') || pgReuse) console.log(`kept PostgreSQL database ${pgDatabase} (rerun with --pg-data ${pgDatabase})`)
    else await pgAdmin.unsafe(`DROP DATABASE IF EXISTS "${pgDatabase}" WITH (FORCE)`)
    await pgAdmin.close()
  }
}

const onlyArg = args.indexOf('--only')
const skipArg = args.indexOf('--skip')
const only = onlyArg === -1 ? null : args[onlyArg + 1]!.split('|')
const skip = skipArg === -1 ? [] : args[skipArg + 1]!.split('|')
const measured = scenarios.filter((s) => (!only || only.some((text) => s.name.includes(text))) && !skip.some((text) => s.name.includes(text)))
if (flag('serve')) await servePaired()

/**
 * --serve: the timing half of a paired comparison (list-paired.ts). Instead of timing series, this
 * process answers GET /shapes (the measured shapes' names), GET /time/I/N/W (W untimed requests of
 * shape I, then N back to back through `app.handle`, each timed as `time()` does; the answer is
 * their milliseconds) and GET /gc (a full collection), until it is killed. Two checkouts serving
 * side by side are asked in turns, a block each, so the machine's drift, which moved one run's p50
 * by 2x here, falls on both alike.
 */
async function servePaired(): Promise<never> {
  const runners = measured.map((s) => appRunner(s))
  const paired = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (req) => {
      const [, what, index, count, untimed] = new URL(req.url).pathname.split('/')
      if (what === 'shapes') return Response.json(measured.map((s) => s.name))
      if (what === 'gc') return Response.json(Bun.gc(true))
      const run = runners[Number(index)]
      if (what !== 'time' || !run) return new Response('unknown', { status: 404 })
      await series(run, Number(untimed) || 0)
      return Response.json(await series(run, Math.max(1, Number(count) || 1)))
    },
  })
  console.log(`serving on ${paired.port}`)
  return new Promise<never>(() => {})
}
const rows: string[][] = []
try {
  // One warm-up pass over every scenario first, so the first one measured does not pay for JIT and caches.
  for (const s of measured) for (let i = 0; i < WARMUP; i++) await appRunner(s)()

  for (const s of measured) {
    if (flag('plans') && sqlite) {
      console.log(`\n${s.name}`)
      for (const sql of [s.page, s.count].filter(Boolean) as string[]) {
        const args = [projectId, ...(s.param === undefined ? [] : [s.param]), ...(s.window ? [0] : []), ...(s.more ?? [])]
        const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(args as [string])) as { detail: string }[]
        console.log(`  ${plan.map((p) => p.detail).join(' | ')}`)
      }
    }
    if (flag('plans') && pg) await explainPg(pg, s)
    const body = (await appRunner(s)()) as { data: { total: number; total_capped: boolean; bugs: unknown[] } }
    const raw = sqlite ? await time(rawRunner(sqlite, s)) : null
    const inProcess = await time(appRunner(s))
    const row = [
      s.name,
      `${body.data.total}${body.data.total_capped ? '+' : ''}`,
      raw?.p50.toFixed(2) ?? '-',
      raw?.p95.toFixed(2) ?? '-',
      inProcess.p50.toFixed(2),
      inProcess.p95.toFixed(2),
      raw ? (inProcess.p50 / raw.p50).toFixed(2) : '-',
      raw ? (inProcess.p50 - raw.p50).toFixed(2) : '-',
    ]
    if (server) {
      const url = `http://127.0.0.1:${server.port}/api/projects/${slug}/bugs${s.query ? `?${s.query}` : ''}`
      const http = await time(async () => (await fetch(url, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': nextIp() } })).json())
      const rawUrl = rawServer && `http://127.0.0.1:${rawServer.port}/${scenarios.indexOf(s)}`
      const rawHttp = rawUrl ? await time(async () => (await fetch(rawUrl)).json()) : null
      row.push(rawHttp?.p50.toFixed(2) ?? '-', rawHttp?.p95.toFixed(2) ?? '-', http.p50.toFixed(2), http.p95.toFixed(2), rawHttp ? (http.p50 / rawHttp.p50).toFixed(2) : '-')
    }
    rows.push(row)
  }
} catch (err) {
  await dropDatabase()
  throw err
} finally {
  server?.stop(true)
  rawServer?.stop(true)
}

const cpuModel = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown'
const engine = pg ? `PostgreSQL ${await scalar(sql`SHOW server_version`)}` : `SQLite ${await scalar(sql`SELECT sqlite_version() AS v`)}`
console.log(`\nhardware: ${cpus().length} CPUs (nproc), ${cpuModel}; Bun ${Bun.version}; ${engine}`)
console.log(`reports: ${N.toLocaleString('en')} in one project, seeded in ${seed.seconds.toFixed(1)} s; ${ITERATIONS} timed runs after ${WARMUP} warm-up; times in ms; total "+" = capped at ${COUNT_CAP}`)
const header = ['scenario', 'total', 'raw p50', 'raw p95', 'app p50', 'app p95', 'app/raw p50', 'app-raw p50', ...(server ? ['raw http p50', 'raw http p95', 'app http p50', 'app http p95', 'http app/raw p50'] : [])]
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
console.log(line(header))
console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`)
for (const r of rows) console.log(line(r))

await dropDatabase()
if (flag('keep') || reuse) console.log(`kept ${dir}`)
else rmSync(dir, { recursive: true, force: true })
