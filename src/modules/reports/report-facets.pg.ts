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
