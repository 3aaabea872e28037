import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { FACET } from './report-facets'
import { SEARCH_DOCUMENT_SQL } from './search-tsquery'

// The PostgreSQL form of report-facets.ts: the report_facets table, a plain table keyed as on SQLite.
// Values compare without case as NOCASE does: under a nondeterministic ICU collation, `linux` finds
// `Linux` and the key holds one of them. (It folds case beyond ASCII too, and accents do count.)
export const reportFacetsPgSql = [
  `CREATE COLLATION IF NOT EXISTS glitchbox_nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false)`,
  `CREATE TABLE IF NOT EXISTS report_facets (
    project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind integer NOT NULL,
    value text COLLATE glitchbox_nocase NOT NULL,
    report_seq integer NOT NULL,
    PRIMARY KEY (project_id, kind, value, report_seq)
  )`,
  // The planner's estimate of one key (kind and value together): the value column's statistics alone
  // span every kind, so platform Linux (157,000 of 1M reports) read as 37,000 and has:screenshot
  // (300,000) as 20,000, and lists with several facets merged whole keys where probing was cheaper.
  `CREATE STATISTICS IF NOT EXISTS report_facets_kind_value (mcv) ON kind, value FROM report_facets`,
]

/**
 * PostgreSQL only: each live report's facets of the kinds below as one array of value ids, with a GIN
 * index, so a list filtered by several of them (the issue's `version:… platform:… has:screenshot …`)
 * intersects the keys inside the index instead of joining them: at 1M reports, 33,000 version keys
 * merged with 158,000 platform keys took ~85 ms, the GIN intersection ~10 (reports.list.repository.ts
 * `keyWalk`). SQLite needs none: its key walk probes a WITHOUT ROWID B-tree at ~1 µs a probe.
 * - `report_facet_values` names each (project, kind, value) once, in the first spelling seen; lookups
 *   go through the same case-blind collation as report_facets, so `linux` finds the id of `Linux`.
 * - `report_facet_sets` follows report_facets through triggers, whoever writes it (ingest, split,
 *   merge, delete), once per statement. Players and tags stay out: a report has many of them, and the
 *   player key is the one that drives (FACET_ORDER in reports.list.ts).
 * - `doc` is a copy of the report's `search_document`, in the same GIN index as the ids, so a common
 *   word within a common facet (`crash version:1.3.0`: 240,000 and 33,000 of 1M reports, 7,000 both)
 *   intersects the two posting lists in the index (~7 ms) instead of testing the word on each of the
 *   facet's reports (33,000 probes of `reports`, 150–300 ms). It is taken from the report when the
 *   set is made and follows edits of the title or description (report_facet_sets_document).
 */
export const FACET_SET_KINDS = [FACET.version, FACET.platform, FACET.screenshot, FACET.runtime, FACET.browser, FACET.environment] as const
const setKinds = `(${FACET_SET_KINDS.join(', ')})`
/** The search document of the report whose seq is `seq` (empty if there is no such report yet). */
const documentOf = (seq: string) => `coalesce((SELECT r.${SEARCH_DOCUMENT_SQL} FROM reports r WHERE r.seq = ${seq}), ''::tsvector)`

export const reportFacetSetsPgSql = [
  `CREATE TABLE IF NOT EXISTS report_facet_values (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind integer NOT NULL,
    value text COLLATE glitchbox_nocase NOT NULL,
    UNIQUE (project_id, kind, value)
  )`,
  `CREATE TABLE IF NOT EXISTS report_facet_sets (
    report_seq integer PRIMARY KEY,
    project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    ids bigint[] NOT NULL,
    doc tsvector NOT NULL
  )`,
  // The ids-only index of an earlier version goes first, so the upgrade below does not update it row by row.
  'DROP INDEX IF EXISTS report_facet_sets_ids',
  // Sets made by an earlier version, without `doc`: given it once, from their reports.
  `DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'report_facet_sets' AND column_name = 'doc') THEN
      ALTER TABLE report_facet_sets ADD COLUMN doc tsvector;
      UPDATE report_facet_sets s SET doc = ${documentOf('s.report_seq')};
      ALTER TABLE report_facet_sets ALTER COLUMN doc SET NOT NULL;
    END IF;
  END $$`,
  // New facet rows: their values named, then their ids added to their reports' sets (a row changes
  // only when it gains an id). The transition table holds the rows actually inserted.
  `CREATE OR REPLACE FUNCTION report_facet_sets_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM added WHERE kind IN ${setKinds}) THEN RETURN NULL; END IF;
    INSERT INTO report_facet_values (project_id, kind, value)
      SELECT DISTINCT ON (project_id, kind, value) project_id, kind, value FROM added WHERE kind IN ${setKinds}
      ON CONFLICT DO NOTHING;
    INSERT INTO report_facet_sets AS s (report_seq, project_id, ids, doc)
      SELECT a.report_seq, min(a.project_id), array_agg(DISTINCT v.id), ${documentOf('a.report_seq')} FROM added a
        JOIN report_facet_values v ON v.project_id = a.project_id AND v.kind = a.kind AND v.value = a.value
        WHERE a.kind IN ${setKinds} GROUP BY a.report_seq
      ON CONFLICT (report_seq) DO UPDATE SET ids = s.ids || ARRAY(SELECT x FROM unnest(excluded.ids) x WHERE x <> ALL (s.ids))
        WHERE NOT s.ids @> excluded.ids;
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE TRIGGER report_facet_sets_ai AFTER INSERT ON report_facets REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION report_facet_sets_added()`,
  // Facet rows taken (split, merge, delete): their ids leave their reports' sets; an empty set goes.
  // A report holds one row per value whatever its case, so the id leaves exactly with its row.
  `CREATE OR REPLACE FUNCTION report_facet_sets_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM removed WHERE kind IN ${setKinds}) THEN RETURN NULL; END IF;
    UPDATE report_facet_sets s SET ids = ARRAY(SELECT x FROM unnest(s.ids) x WHERE x <> ALL (g.ids))
      FROM (SELECT r.report_seq, array_agg(v.id) AS ids FROM removed r
        JOIN report_facet_values v ON v.project_id = r.project_id AND v.kind = r.kind AND v.value = r.value
        WHERE r.kind IN ${setKinds} GROUP BY r.report_seq) g
      WHERE s.report_seq = g.report_seq;
    DELETE FROM report_facet_sets WHERE ids = '{}' AND report_seq IN (SELECT report_seq FROM removed);
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE TRIGGER report_facet_sets_ad AFTER DELETE ON report_facets REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION report_facet_sets_removed()`,
  // An edited title or description changes the report's document: its set's copy follows.
  `CREATE OR REPLACE FUNCTION report_facet_sets_document() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE report_facet_sets SET doc = NEW.${SEARCH_DOCUMENT_SQL} WHERE report_seq = NEW.seq;
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE TRIGGER report_facet_sets_document_au AFTER UPDATE OF title, description ON reports FOR EACH ROW
    WHEN (OLD.${SEARCH_DOCUMENT_SQL} IS DISTINCT FROM NEW.${SEARCH_DOCUMENT_SQL}) EXECUTE FUNCTION report_facet_sets_document()`,
  // A database whose facets predate the sets (an earlier version, a bulk load or a copy from SQLite
  // with triggers off) gets them once, in two statements.
  `INSERT INTO report_facet_values (project_id, kind, value)
     SELECT DISTINCT ON (project_id, kind, value) project_id, kind, value FROM report_facets
     WHERE kind IN ${setKinds} AND NOT EXISTS (SELECT 1 FROM report_facet_sets)
     ON CONFLICT DO NOTHING`,
  `INSERT INTO report_facet_sets (report_seq, project_id, ids, doc)
     SELECT f.report_seq, min(f.project_id), array_agg(v.id), ${documentOf('f.report_seq')} FROM report_facets f
       JOIN report_facet_values v ON v.project_id = f.project_id AND v.kind = f.kind AND v.value = f.value
     WHERE f.kind IN ${setKinds} AND NOT EXISTS (SELECT 1 FROM report_facet_sets) GROUP BY f.report_seq`,
  // Built after the fill (in one pass, not row by row). A new report's set brings its document's words
  // too (~100 for a 2 KB report): fast updates gather them in a pending list merged into the index in
  // bulk, kept small (256 kB) because every search scans it until then.
  'CREATE INDEX IF NOT EXISTS report_facet_sets_ids_doc ON report_facet_sets USING gin (ids, doc) WITH (fastupdate = on, gin_pending_list_limit = 256)',
]

/** `report_facet_sets` as Drizzle sees it, for the list's queries only (PostgreSQL; created by the SQL above). */
export const reportFacetSets = sqliteTable('report_facet_sets', {
  reportSeq: integer('report_seq').notNull(),
  projectId: text('project_id').notNull(),
})
