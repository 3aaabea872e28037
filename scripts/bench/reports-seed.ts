import type { Database } from 'bun:sqlite'
import { reportsFtsSql } from '../../src/modules/reports/reports.fts'
import { extractErrorType } from '../../src/modules/reports/error-type'
import { titleTermsOf } from '../../src/modules/reports/title-terms'
import { openTitleTermsSql } from '../../src/modules/ingest/open-title-terms'

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
const PLATFORMS = ['PC', 'PS5', 'Xbox Series X', 'Switch', 'Android', 'iOS', 'Steam Deck']
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

/**
 * Inserts `n` reports (and labels on about 10% of them) straight into the migrated database with
 * prepared statements in big transactions. As a bulk import would, it drops the insert triggers of
 * the search and open-title indexes and the secondary indexes of `reports` during the load, then
 * rebuilds them in one pass each from the DDL the migrations created (read back from sqlite_master,
 * so the indexes are the real ones).
 */
export function seedReports(sqlite: Database, o: { projectId: string; userId: string; n: number; start: number }): { seconds: number; labelIds: string[] } {
  const t0 = performance.now()
  const rand = rng(42)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!
  const weighted = (xs: [string, number][]) => {
    let r = rand()
    for (const [v, w] of xs) if ((r -= w) < 0) return v
    return xs.at(-1)![0]
  }
  const labelIds = LABELS.map(() => crypto.randomUUID())
  sqlite.transaction(() => {
    LABELS.forEach((name, i) => sqlite.query('INSERT INTO labels (id, project_id, name, color, created_at) VALUES (?, ?, ?, ?, ?)').run(labelIds[i]!, o.projectId, name, '#2E5BFF', o.start))
  })()
  sqlite.exec('DROP TRIGGER IF EXISTS reports_fts_ai')
  sqlite.exec('DROP TRIGGER IF EXISTS open_title_terms_ai')
  const indexes = sqlite
    .query<{ name: string; sql: string }, []>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reports' AND sql IS NOT NULL AND name <> 'reports_id_unique'`)
    .all()
  for (const ix of indexes) sqlite.exec(`DROP INDEX ${ix.name}`)
  const insert = sqlite.prepare(
    `INSERT INTO reports (id, project_id, report_number, title, description, status, priority, priority_rank, category, platform, game_version,
      assigned_to, error_type, source, upvotes, title_terms, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const label = sqlite.prepare('INSERT INTO report_labels (report_id, report_seq, label_id) VALUES (?, ?, ?)')
  const BATCH = 50_000
  for (let from = 1; from <= o.n; from += BATCH) {
    sqlite.transaction(() => {
      for (let i = from; i < Math.min(from + BATCH, o.n + 1); i++) {
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
        const { lastInsertRowid: seq } = insert.run(
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
        )
        if (rand() < 0.1) label.run(id, seq, pick(labelIds))
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
  return { seconds: (performance.now() - t0) / 1000, labelIds }
}
