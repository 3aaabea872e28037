// Triggers that keep report_status_counts equal to the live reports per project and status,
// whoever writes the rows (services, bulk updates, imports, project deletion).
const bump = (row: 'new' | 'old', delta: 1 | -1) =>
  `INSERT INTO report_status_counts (project_id, status, n) VALUES (${row}.project_id, ${row}.status, ${delta})
     ON CONFLICT (project_id, status) DO UPDATE SET n = n + ${delta};`

export const reportCountsSql = [
  `CREATE TRIGGER IF NOT EXISTS report_counts_ai AFTER INSERT ON reports WHEN new.deleted_at IS NULL BEGIN
    ${bump('new', 1)}
  END`,
  `CREATE TRIGGER IF NOT EXISTS report_counts_au AFTER UPDATE OF status, deleted_at, project_id ON reports BEGIN
    INSERT INTO report_status_counts (project_id, status, n) SELECT old.project_id, old.status, -1 WHERE old.deleted_at IS NULL
      ON CONFLICT (project_id, status) DO UPDATE SET n = n - 1;
    INSERT INTO report_status_counts (project_id, status, n) SELECT new.project_id, new.status, 1 WHERE new.deleted_at IS NULL
      ON CONFLICT (project_id, status) DO UPDATE SET n = n + 1;
  END`,
  `CREATE TRIGGER IF NOT EXISTS report_counts_ad AFTER DELETE ON reports WHEN old.deleted_at IS NULL BEGIN
    ${bump('old', -1)}
  END`,
  // A database whose reports predate the triggers (a bulk load that dropped them) is counted once.
  `INSERT INTO report_status_counts (project_id, status, n)
     SELECT project_id, status, count(*) FROM reports WHERE deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM report_status_counts) GROUP BY project_id, status`,
]
