// The PostgreSQL form of analytics.triggers.ts: analytics_report_dimensions equal to the live reports per
// project by priority and by category, and each move into `resolved` counted per UTC day.
const dims = (row: 'new' | 'old', delta: '+' | '-') =>
  ['priority', 'category']
    .map(
      (d) => `INSERT INTO analytics_report_dimensions (project_id, dimension, value, n) VALUES (${row}.project_id, '${d}', ${row}.${d}, ${delta}1)
        ON CONFLICT (project_id, dimension, value) DO UPDATE SET n = analytics_report_dimensions.n ${delta} 1;`,
    )
    .join('\n')

export const analyticsTriggersPgSql = [
  `CREATE OR REPLACE FUNCTION analytics_dims_bump() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- Reports deleted with their project (a cascade) have no counts left to keep: the project's rows go with it.
    IF TG_OP <> 'INSERT' AND old.deleted_at IS NULL AND EXISTS (SELECT 1 FROM projects WHERE id = old.project_id) THEN
      ${dims('old', '-')}
    END IF;
    IF TG_OP <> 'DELETE' AND new.deleted_at IS NULL THEN
      ${dims('new', '+')}
    END IF;
    RETURN NULL;
  END $$`,
  // Inserted live reports count under their priority and their category, once per statement (as
  // report_counts_ai: a row trigger bumping the same counter rows made bulk inserts quadratic).
  `CREATE OR REPLACE FUNCTION analytics_dims_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO analytics_report_dimensions (project_id, dimension, value, n)
      SELECT project_id, 'priority', priority, count(*) FROM added WHERE deleted_at IS NULL GROUP BY project_id, priority
      UNION ALL
      SELECT project_id, 'category', category, count(*) FROM added WHERE deleted_at IS NULL GROUP BY project_id, category
      ON CONFLICT (project_id, dimension, value) DO UPDATE SET n = analytics_report_dimensions.n + excluded.n;
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE TRIGGER analytics_dims_ai AFTER INSERT ON reports REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION analytics_dims_added()`,
  // A report changing priority, category, project or deletion moves from its old counts to its new ones.
  `CREATE OR REPLACE TRIGGER analytics_dims_au AFTER UPDATE OF priority, category, deleted_at, project_id ON reports FOR EACH ROW EXECUTE FUNCTION analytics_dims_bump()`,
  // A live report removed leaves its counts.
  `CREATE OR REPLACE TRIGGER analytics_dims_ad AFTER DELETE ON reports FOR EACH ROW WHEN (old.deleted_at IS NULL) EXECUTE FUNCTION analytics_dims_bump()`,
  `CREATE OR REPLACE FUNCTION analytics_resolved_count() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO analytics_daily_resolved (project_id, day, n)
      VALUES (new.project_id, to_char(timestamp 'epoch' + new.updated_at * interval '1 millisecond', 'YYYY-MM-DD'), 1)
      ON CONFLICT (project_id, day) DO UPDATE SET n = analytics_daily_resolved.n + 1;
    RETURN NULL;
  END $$`,
  // A live report moving into resolved counts on the UTC day of its update.
  `CREATE OR REPLACE TRIGGER analytics_resolved_au AFTER UPDATE OF status ON reports FOR EACH ROW
    WHEN (new.status = 'resolved' AND old.status <> 'resolved' AND new.deleted_at IS NULL) EXECUTE FUNCTION analytics_resolved_count()`,
  // A database whose reports predate the triggers is counted once.
  `INSERT INTO analytics_report_dimensions (project_id, dimension, value, n)
     SELECT project_id, 'priority', priority, count(*) FROM reports WHERE deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM analytics_report_dimensions) GROUP BY project_id, priority
     UNION ALL
     SELECT project_id, 'category', category, count(*) FROM reports WHERE deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM analytics_report_dimensions) GROUP BY project_id, category`,
]
