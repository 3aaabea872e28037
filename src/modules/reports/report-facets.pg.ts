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
]
