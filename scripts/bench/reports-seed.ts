import type { Database } from 'bun:sqlite'
import { reportsFtsSql } from '../../src/modules/reports/reports.fts'
import { extractErrorType } from '../../src/modules/reports/error-type'
import { titleTermsOf } from '../../src/modules/reports/title-terms'
import { openTitleTermsSql } from '../../src/modules/ingest/open-title-terms'
import { FACET } from '../../src/modules/reports/report-facets'
import { createHash } from 'node:crypto'

const DAY = 86_400_000
const fingerprintOf = (key: string) => createHash('md5').update(key).digest('hex')

/** A word that appears in about one report in 10,000: the "rare term" of the benchmark. */
export const RARE_TERM = 'zeppelin'
/** A word in roughly a third of the reports: the "common term". */
export const COMMON_TERM = 'crash'

const SUBJECTS = ['Crash', 'Freeze', 'Stutter', 'Black screen', 'Texture flicker', 'Audio dropout', 'Desync', 'Softlock', 'Input lag', 'Memory leak', 'Missing sound', 'Clipping', 'UI overlap', 'Save corruption', 'Frame drop']
const VERBS = ['when opening', 'after closing', 'while loading', 'during', 'right after', 'whenever I enter', 'on exiting', 'when saving in', 'when zooming into', 'after pausing']
const PLACES = ['the inventory', 'the main menu', 'the forest level', 'the boss arena', 'multiplayer lobby', 'the crafting screen', 'the world map', 'the settings page', 'the desert outpost', 'co-op mode', 'the tutorial', 'the shop', 'the photo mode', 'the cave dungeon', 'split screen']
const DETAILS = [
  'The game hangs for a few seconds and then the screen goes black.',
  'My character falls through the floor and I have to restart from the checkpoint.',
  'Frame rate drops from 60 to about 12 and never recovers until I reload.',
  'Sound effects cut out but the music keeps playing.',
  'The controller stops responding and only the keyboard works.',
  'It happens about half the time, more often with high graphics settings.',
  'Happened twice in a row after the latest patch, never before.',
  'Other players in the party see me standing still while I keep moving.',
  'The quest marker points to the wrong place and the objective cannot be completed.',
  'I lost about an hour of progress because the autosave was broken.',
  'Textures stay blurry and low resolution for the whole session.',
  'Tried verifying game files and reinstalling drivers, nothing helped.',
]
const STACKS = [
  'NullReferenceException: Object reference not set to an instance of an object\n  at Inventory.Add (Item item) [0x00012] in Inventory.cs:88',
  'java.lang.IllegalStateException: Fragment not attached to a context.\n\tat androidx.fragment.app.Fragment.requireContext(Fragment.java:900)',
  "Uncaught TypeError: Cannot read properties of undefined (reading 'x')\n    at update (game.js:120:5)",
  "terminate called after throwing an instance of 'std::out_of_range'\n  what():  vector::_M_range_check",
  'Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR) in tid 4242 (RenderThread)',
  "SCRIPT ERROR: Invalid get index 'position' (on base: 'Nil').\n   at: _process (res://player.gd:12)",
]
const STATUSES: [string, number][] = [
  ['open', 0.4],
  ['in_progress', 0.15],
  ['resolved', 0.25],
  ['closed', 0.15],
  ['wont_fix', 0.05],
]
const PRIORITIES: [string, number][] = [
  ['critical', 0.05],
  ['high', 0.2],
  ['medium', 0.5],
  ['low', 0.25],
]
const CATEGORIES = ['crash', 'visual', 'gameplay', 'performance', 'audio', 'ui', 'network', 'other']
const PLATFORMS = ['Windows', 'Linux', 'macOS', 'PS5', 'Xbox Series X', 'Switch', 'Steam Deck']
/** Forty builds, `1.0.0` … `1.39.0`; a report's occurrences come from one to three consecutive ones. */
const VERSIONS = Array.from({ length: 40 }, (_, i) => `1.${i}.0`)

/** The bench's shapes of issue 24: a version in ~5% of reports, a platform, a heavy and a typical player, a crash key. */
export const SHAPES = { version: '1.3.0', platform: 'Linux', heavyPlayer: 'player-0', typicalPlayer: 'player-4242', error: 'NullReferenceException' }
const PLAYERS = 200_000
const LABELS = ['regression', 'needs-repro', 'known-issue', 'hotfix', 'localization']

/** Deterministic PRNG (mulberry32): the same seed gives the same data set on every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

/** The columns of a seeded report, in the order `SeededReport.values` holds them. */
export const REPORT_COLUMNS = [
  'id', 'project_id', 'report_number', 'title', 'description', 'status', 'priority', 'priority_rank', 'category', 'platform', 'game_version',
  'assigned_to', 'error_type', 'source', 'upvotes', 'title_terms', 'created_by', 'created_at', 'updated_at',
  'fingerprint', 'occurrence_count', 'player_count', 'first_seen', 'last_seen', 'first_version', 'last_version', 'versions', 'regressed_in_version', 'screenshot_key',
] as const

/** One generated report and the rows that hang off it (facets and daily counts as `[kind, value]` / `[day, n]`). */
export interface SeededReport {
  number: number
  values: (string | number | null)[]
  label: string | null
  facets: [number, string][]
  daily: [number, number][]
  occurrence: { id: string; title: string; version: string; platform: string; player: string; at: number } | null
}

/**
 * The benchmark's data set, one report at a time, the same on every run and for every engine (a fixed
 * seed): labels on about 10% of reports, their occurrence counts, versions, facets and daily counts, an
 * occurrence row for the newest 20,000.
 */
export function* generateReports(o: { projectId: string; userId: string; n: number; start: number; labelIds: string[] }): Generator<SeededReport> {
  const rand = rng(42)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!
  const weighted = (xs: [string, number][]) => {
    let r = rand()
    for (const [v, w] of xs) if ((r -= w) < 0) return v
    return xs.at(-1)![0]
  }
  // Low numbers play (and crash) most: player-0 is in ~0.2% of draws (thousands of reports), player-4242 in a few dozen.
  const player = () => `player-${Math.floor(rand() ** 2 * PLAYERS)}`
  for (let i = 1; i <= o.n; i++) {
    const auto = rand() < 0.2
    const stack = auto ? pick(STACKS) : ''
    let title = `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(PLACES)}`
    if (auto) title = `[Error] ${stack.split('\n')[0]!.slice(0, 120)}`
    let description = `${pick(DETAILS)} ${pick(DETAILS)}${rand() < 0.5 ? ` ${pick(DETAILS)}` : ''} Platform ${pick(PLATFORMS)}, build 1.${Math.floor(rand() * 40)}.`
    if (rand() < 0.25) description += ' The game crash report window opened afterwards.'
    if (rand() < 0.0001) description += ` Happened near the ${RARE_TERM} hangar.`
    if (auto) description = `Auto-filed by the SDK.\n\n--- Stack Trace ---\n${stack}\n\n--- Recent Logs ---\nLoaded scene ${pick(PLACES)}`
    const priority = weighted(PRIORITIES)
    const created = o.start + i * 1000
    const id = crypto.randomUUID()
    // Crashes repeat: most are seen a few times, some by hundreds of players; player reports mostly once.
    const occurrences = auto ? 1 + Math.floor(rand() ** 3 * 400) : rand() < 0.1 ? 2 + Math.floor(rand() * 4) : 1
    const players = Math.max(1, Math.min(occurrences, Math.ceil(occurrences * (0.4 + rand() * 0.6))))
    const lastSeen = created + Math.floor(rand() * rand() * 5 * 86_400_000)
    const v0 = Math.floor(rand() * (VERSIONS.length - 2))
    const versions = VERSIONS.slice(v0, v0 + 1 + (occurrences > 1 ? Math.floor(rand() * 3) : 0))
    const platforms = [pick(PLATFORMS), ...(occurrences > 1 && rand() < 0.5 ? [pick(PLATFORMS)] : [])]
    const values = [
      id,
      o.projectId,
      i,
      title,
      description,
      weighted(STATUSES),
      priority,
      PRIORITIES.findIndex(([p]) => p === priority),
      pick(CATEGORIES),
      pick(PLATFORMS),
      `1.${Math.floor(rand() * 40)}`,
      rand() < 0.3 ? o.userId : null,
      auto ? extractErrorType(title, description) : '',
      auto ? 'system' : 'user',
      Math.floor(rand() ** 4 * 200),
      titleTermsOf(title),
      o.userId,
      created,
      created + Math.floor(rand() * 86_400_000),
      // Crashes share keys (a closed report and its reopened twin); player reports have their own.
      fingerprintOf(auto ? `crash-${i % 50_000}` : `title-${i}`),
      occurrences,
      players,
      created,
      lastSeen,
      versions[0]!,
      versions.at(-1)!,
      JSON.stringify([...versions].reverse()),
      auto && rand() < 0.02 ? versions.at(-1)! : null,
      rand() < 0.3 ? `seed/${i}.png` : null,
    ]
    const label = rand() < 0.1 ? pick(o.labelIds) : null
    const facets: [number, string][] = versions.map((v) => [FACET.version, v])
    for (const p of new Set(platforms)) facets.push([FACET.platform, p])
    for (const p of new Set(Array.from({ length: Math.min(players, 5) }, player))) facets.push([FACET.player, p])
    if (rand() < 0.3) facets.push([FACET.screenshot, ''])
    // Its occurrences over the days from its first to its last sighting.
    const daily: [number, number][] = []
    const first = Math.floor(created / DAY)
    const last = Math.floor(lastSeen / DAY)
    for (let d = first, left = occurrences; d <= last && left > 0; d++) {
      const n = d === last ? left : Math.ceil(left * rand())
      daily.push([d, n])
      left -= n
    }
    // The newest reports have an occurrence row each (what a read adds past the rollup cursor).
    const occurrence = i > o.n - 20_000 ? { id: crypto.randomUUID(), title, version: versions.at(-1)!, platform: platforms[0]!, player: player(), at: lastSeen } : null
    yield { number: i, values, label, facets, daily, occurrence }
  }
}

/** The benchmark's labels: their names and fresh ids. */
export const seedLabels = () => LABELS.map((name) => ({ id: crypto.randomUUID(), name }))

/**
 * Inserts `n` reports (generateReports) straight into the migrated SQLite database with prepared
 * statements in big transactions. As a bulk import would, it drops the insert triggers of the search
 * and open-title indexes and the secondary indexes of `reports` during the load, then rebuilds them in
 * one pass each from the DDL the migrations created (read back from sqlite_master, so the indexes are
 * the real ones).
 */
export function seedReports(sqlite: Database, o: { projectId: string; userId: string; n: number; start: number }): { seconds: number; labelIds: string[] } {
  const t0 = performance.now()
  const labels = seedLabels()
  const labelIds = labels.map((l) => l.id)
  sqlite.transaction(() => {
    for (const l of labels) sqlite.query('INSERT INTO labels (id, project_id, name, color, created_at) VALUES (?, ?, ?, ?, ?)').run(l.id, o.projectId, l.name, '#2E5BFF', o.start)
  })()
  sqlite.exec('DROP TRIGGER IF EXISTS reports_fts_ai')
  sqlite.exec('DROP TRIGGER IF EXISTS open_title_terms_ai')
  const indexes = sqlite
    .query<{ name: string; sql: string }, []>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reports' AND sql IS NOT NULL AND name <> 'reports_id_unique'`)
    .all()
  for (const ix of indexes) sqlite.exec(`DROP INDEX ${ix.name}`)
  const insert = sqlite.prepare(`INSERT INTO reports (${REPORT_COLUMNS.join(', ')}) VALUES (${REPORT_COLUMNS.map(() => '?').join(', ')})`)
  const label = sqlite.prepare('INSERT INTO report_labels (report_id, report_seq, label_id) VALUES (?, ?, ?)')
  // Facets and daily counts go to plain tables first and into their keyed tables sorted, in one pass each.
  sqlite.exec('CREATE TEMP TABLE seed_facets (kind INTEGER, value TEXT, report_seq INTEGER)')
  sqlite.exec('CREATE TEMP TABLE seed_daily (report_seq INTEGER, day INTEGER, n INTEGER)')
  const facet = sqlite.prepare('INSERT INTO seed_facets VALUES (?, ?, ?)')
  const daily = sqlite.prepare('INSERT INTO seed_daily VALUES (?, ?, ?)')
  const occurrence = sqlite.prepare(
    `INSERT INTO report_occurrences (id, report_id, project_id, title, description, game_version, platform, player_id, created_at) VALUES (?, ?, ?, ?, 'seeded', ?, ?, ?, ?)`,
  )
  const reports = generateReports({ ...o, labelIds })
  const BATCH = 50_000
  for (let from = 1; from <= o.n; from += BATCH) {
    sqlite.transaction(() => {
      for (let i = from; i < Math.min(from + BATCH, o.n + 1); i++) {
        const r = reports.next().value as SeededReport
        const { lastInsertRowid: seq } = insert.run(...(r.values as string[]))
        if (r.label) label.run(r.values[0]!, seq, r.label)
        for (const [kind, value] of r.facets) facet.run(kind, value, seq)
        for (const [day, n] of r.daily) daily.run(seq, day, n)
        const oc = r.occurrence
        if (oc) occurrence.run(oc.id, r.values[0]!, o.projectId, oc.title, oc.version, oc.platform, oc.player, oc.at)
      }
    })()
  }
  sqlite.query('UPDATE projects SET last_report_number = ?, live_report_count = ? WHERE id = ?').run(o.n, o.n, o.projectId)
  for (const ix of indexes) sqlite.exec(ix.sql)
  sqlite.exec(`INSERT INTO reports_fts(reports_fts) VALUES ('rebuild')`)
  for (const stmt of reportsFtsSql) sqlite.exec(stmt)
  sqlite.exec(`INSERT OR IGNORE INTO open_title_terms (project_id, term, neg_seq, report_number, n_terms)
    SELECT r.project_id, j.value, -r.seq, r.report_number, json_array_length(r.title_terms) FROM reports r, json_each(r.title_terms) j
    WHERE r.deleted_at IS NULL AND r.status IN ('open', 'in_progress')`)
  for (const stmt of openTitleTermsSql) sqlite.exec(stmt)
  sqlite.query('INSERT INTO report_facets (project_id, kind, value, report_seq) SELECT ?, kind, value, report_seq FROM seed_facets ORDER BY kind, value, report_seq').run(o.projectId)
  sqlite.exec('INSERT INTO report_daily (report_seq, day, n) SELECT report_seq, day, n FROM seed_daily ORDER BY report_seq, day')
  sqlite.exec('DROP TABLE seed_facets; DROP TABLE seed_daily')
  // The rollup has counted all but the newest 1,000 occurrences.
  sqlite.exec(`INSERT OR REPLACE INTO rollup_cursors (name, position) SELECT 'analytics_occurrences', max(seq) - 1000 FROM report_occurrences`)
  return { seconds: (performance.now() - t0) / 1000, labelIds }
}
