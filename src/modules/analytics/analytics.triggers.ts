// Triggers that keep analytics_report_dimensions equal to the live reports per project by priority and
// by category, and count each move into `resolved` per UTC day, whoever writes the rows.
const dims = (row: 'new' | 'old', delta: 1 | -1, cond = '') =>
  ['priority', 'category']
    .map(
      (d) => `INSERT INTO analytics_report_dimensions (project_id, dimension, value, n) SELECT ${row}.project_id, '${d}', ${row}.${d}, ${delta} WHERE 1 ${cond}
     ON CONFLICT (project_id, dimension, value) DO UPDATE SET n = n + ${delta};`,
    )
    .join('\n')

export const analyticsTriggersSql = [
  `CREATE TRIGGER IF NOT EXISTS analytics_dims_ai AFTER INSERT ON reports WHEN new.deleted_at IS NULL BEGIN
    ${dims('new', 1)}
  END`,
  `CREATE TRIGGER IF NOT EXISTS analytics_dims_au AFTER UPDATE OF priority, category, deleted_at, project_id ON reports BEGIN
    ${dims('old', -1, 'AND old.deleted_at IS NULL')}
    ${dims('new', 1, 'AND new.deleted_at IS NULL')}
  END`,
  // Reports deleted with their project (a cascade) have no counts left to keep: the project's rows go with it.
  `CREATE TRIGGER IF NOT EXISTS analytics_dims_ad AFTER DELETE ON reports WHEN old.deleted_at IS NULL BEGIN
    ${dims('old', -1, 'AND EXISTS (SELECT 1 FROM projects WHERE id = old.project_id)')}
  END`,
  `CREATE TRIGGER IF NOT EXISTS analytics_resolved_au AFTER UPDATE OF status ON reports
    WHEN new.status = 'resolved' AND old.status <> 'resolved' AND new.deleted_at IS NULL BEGIN
    INSERT INTO analytics_daily_resolved (project_id, day, n) VALUES (new.project_id, strftime('%Y-%m-%d', new.updated_at / 1000, 'unixepoch'), 1)
      ON CONFLICT (project_id, day) DO UPDATE SET n = n + 1;
  END`,
  // A database whose reports predate the triggers is counted once.
  `INSERT INTO analytics_report_dimensions (project_id, dimension, value, n)
     SELECT project_id, 'priority', priority, count(*) FROM reports WHERE deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM analytics_report_dimensions) GROUP BY project_id, priority
     UNION ALL
     SELECT project_id, 'category', category, count(*) FROM reports WHERE deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM analytics_report_dimensions) GROUP BY project_id, category`,
]
