import { dropIfPerRow } from '../../db/pg/row-trigger'

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
  // Reports changing priority, category, project or deletion move from their old counts to their new
  // ones, once per statement (as report_counts_au: a row trigger made a bulk change of 10,000 reports
  // update the same counter rows 10,000 times). Every update of reports runs it; most move nothing.
  `CREATE OR REPLACE FUNCTION analytics_dims_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO analytics_report_dimensions (project_id, dimension, value, n)
      SELECT project_id, dimension, value, sum(d) FROM (
        SELECT project_id, 'priority' AS dimension, priority AS value, -1 AS d FROM prior WHERE deleted_at IS NULL
        UNION ALL SELECT project_id, 'category', category, -1 FROM prior WHERE deleted_at IS NULL
        UNION ALL SELECT project_id, 'priority', priority, 1 FROM updated WHERE deleted_at IS NULL
        UNION ALL SELECT project_id, 'category', category, 1 FROM updated WHERE deleted_at IS NULL
      ) moves GROUP BY project_id, dimension, value HAVING sum(d) <> 0
      ON CONFLICT (project_id, dimension, value) DO UPDATE SET n = analytics_report_dimensions.n + excluded.n;
    RETURN NULL;
  END $$`,
  // A database made before has a row trigger of this name: dropped once, then replaced.
  dropIfPerRow('analytics_dims_au', 'reports'),
  `CREATE OR REPLACE TRIGGER analytics_dims_au AFTER UPDATE ON reports REFERENCING OLD TABLE AS prior NEW TABLE AS updated FOR EACH STATEMENT EXECUTE FUNCTION analytics_dims_moved()`,
  // A live report removed leaves its counts.
  `CREATE OR REPLACE TRIGGER analytics_dims_ad AFTER DELETE ON reports FOR EACH ROW WHEN (old.deleted_at IS NULL) EXECUTE FUNCTION analytics_dims_bump()`,
  `CREATE OR REPLACE FUNCTION analytics_resolved_count() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO analytics_daily_resolved (project_id, day, n)
      SELECT u.project_id, to_char(timestamp 'epoch' + u.updated_at * interval '1 millisecond', 'YYYY-MM-DD'), count(*)
      FROM updated u JOIN prior p ON p.seq = u.seq
      WHERE u.status = 'resolved' AND p.status <> 'resolved' AND u.deleted_at IS NULL
      GROUP BY 1, 2
      ON CONFLICT (project_id, day) DO UPDATE SET n = analytics_daily_resolved.n + excluded.n;
    RETURN NULL;
  END $$`,
  // Live reports moving into resolved count on the UTC day of their update, once per statement (a bulk resolve is one counter write).
  dropIfPerRow('analytics_resolved_au', 'reports'),
  `CREATE OR REPLACE TRIGGER analytics_resolved_au AFTER UPDATE ON reports REFERENCING OLD TABLE AS prior NEW TABLE AS updated FOR EACH STATEMENT EXECUTE FUNCTION analytics_resolved_count()`,
  // A database whose reports predate the triggers is counted once.
  `INSERT INTO analytics_report_dimensions (project_id, dimension, value, n)
     SELECT project_id, 'priority', priority, count(*) FROM reports WHERE deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM analytics_report_dimensions) GROUP BY project_id, priority
     UNION ALL
     SELECT project_id, 'category', category, count(*) FROM reports WHERE deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM analytics_report_dimensions) GROUP BY project_id, category`,
]
