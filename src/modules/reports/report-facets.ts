import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { Seam } from '../../db/client'
import type { Backfill } from '../../db/post-migrate'
import { compareSemver, parseSemver } from '../../lib/semver'
import { createReportsSearchRepository } from './reports.search.repository'
import { tagFacetValue } from './report-tags'

/**
 * What the list filters on that a report's occurrences carry, one row per (report, value): the game
 * versions and platforms its occurrences came from, their players, and whether any brought a
 * screenshot. `version:1.3.0` is "any occurrence in 1.3.0", which no column of `reports` can say.
 *
 * Keyed (project, kind, value, report) so a filter reads the matching reports newest first straight
 * off the key, like `report_labels (label_id, report_seq)` does for labels, and stops after a page.
 * WITHOUT ROWID: one B-tree, no second index to keep. Written by the ingest path (one INSERT OR
 * IGNORE per value, no reads) and by split and merge; a report never loses a facet except when split
 * moves the last occurrence with that value out. Only live reports have rows: deleting or merging a
 * report takes its rows (`dropFacetsOfReports`), so a list filtered by facets alone is counted from
 * this key without reading a report. Values compare without ASCII case (`linux` finds `Linux`).
 * Declared here rather than as a Drizzle table (drizzle-kit has no WITHOUT ROWID) and created through
 * the reports module's `database` parts. There is no key on the report alone, so no foreign key to `reports`
 * (reports are hard-deleted only with their project, and the project's rows go with it).
 */
export const REPORT_FACETS_TABLE = 'report_facets'

/** Facet kinds, stored as small integers (the kind is in every key). */
export const FACET = { version: 1, platform: 2, player: 3, screenshot: 4, runtime: 5, browser: 6, environment: 7, tag: 8 } as const
export type FacetKind = keyof typeof FACET

export const reportFacetsSql = [
  `CREATE TABLE IF NOT EXISTS report_facets (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind INTEGER NOT NULL,
    value TEXT NOT NULL COLLATE NOCASE,
    report_seq INTEGER NOT NULL,
    PRIMARY KEY (project_id, kind, value, report_seq)
  ) WITHOUT ROWID`,
]

/** The table as Drizzle sees it, for queries only (kept out of db/schema.ts, like report_players). */
export const reportFacets = sqliteTable('report_facets', {
  projectId: text('project_id').notNull(),
  kind: integer('kind').notNull(),
  value: text('value').notNull(),
  reportSeq: integer('report_seq').notNull(),
})

/** The facets read straight from an occurrence's column of the same name (`runtime:node` is its `runtime`). */
export const COLUMN_FACETS = [
  ['platform', 'platform'],
  ['runtime', 'runtime'],
  ['browser', 'browser'],
  ['environment', 'environment'],
] as const

/**
 * What an occurrence adds: its version, platform, runtime, browser, environment, player, screenshot and tags (`key=value`), each when it has one.
 * `known` leaves out what the report is known to have already (a stacked occurrence: the versions
 * the report lists, a player it had counted), saving those writes.
 */
export function facetsOfOccurrence(
  o: { gameVersion: string; platform: string; runtime: string; browser: string; environment: string; playerId: string | null; screenshotKey: string | null; tags?: [string, string][] },
  known: { versionListed: boolean; playerCounted: boolean } = { versionListed: false, playerCounted: false },
): [number, string][] {
  const out: [number, string][] = []
  if (o.gameVersion && !known.versionListed) out.push([FACET.version, o.gameVersion])
  for (const [kind, column] of COLUMN_FACETS) if (o[column]) out.push([FACET[kind], o[column]])
  if (o.playerId && !known.playerCounted) out.push([FACET.player, o.playerId])
  if (o.screenshotKey) out.push([FACET.screenshot, ''])
  for (const tag of o.tags ?? []) out.push([FACET.tag, tagFacetValue(tag)])
  return out
}

/** Fills the table from the occurrences of a database that had reports before it (live reports only). */
export const reportFacetsBackfill: Backfill = {
  sql: (
    [
      [FACET.version, 'o.game_version', "o.game_version <> ''"],
      ...COLUMN_FACETS.map(([kind, column]): [number, string, string] => [FACET[kind], `o.${column}`, `o.${column} <> ''`]),
      [FACET.player, 'o.player_id', "o.player_id <> ''"],
      [FACET.screenshot, "''", 'o.screenshot_key IS NOT NULL'],
    ] satisfies [number, string, string][]
  ).map(
    ([kind, column, extra]) => `INSERT OR IGNORE INTO report_facets (project_id, kind, value, report_seq)
      SELECT r.project_id, ${kind}, ${column}, r.seq FROM report_occurrences o JOIN reports r ON r.id = o.report_id WHERE ${extra} AND r.deleted_at IS NULL`,
  ),
}

/**
 * The distinct versions, platforms, runtimes, browsers and environments the project's occurrences
 * came from, for the list's filter controls: a skip scan of the key (one seek per value, not a read
 * of every report's row). Versions newest first (by semantic version where both parse, else by
 * name), the others by name.
 */
export async function facetValues(db: Seam, projectId: string) {
  const repo = createReportsSearchRepository({ db })
  const [versions, platforms, runtimes, browsers, environments] = await Promise.all(
    (['version', 'platform', 'runtime', 'browser', 'environment'] as const).map((kind) => repo.facetValues(projectId, kind)),
  )
  const byVersion = (a: string, b: string) => (parseSemver(a) && parseSemver(b) ? compareSemver(b, a) : a.localeCompare(b))
  return { versions: versions!.sort(byVersion), platforms: platforms!, runtimes: runtimes!, browsers: browsers!, environments: environments! }
}
