import { dropIfPerRow } from '../../db/pg/row-trigger'

// The PostgreSQL form of reports.counts.ts: report_status_counts equal to the live reports per project
// and status, whoever writes the rows: inserts and updates counted per statement, deletes per row.
export const reportCountsPgSql = [
  `CREATE OR REPLACE FUNCTION report_counts_bump() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- Reports deleted with their project (a cascade) have no counts left to keep: the project's rows go with it.
    IF TG_OP <> 'INSERT' AND old.deleted_at IS NULL AND EXISTS (SELECT 1 FROM projects WHERE id = old.project_id) THEN
      INSERT INTO report_status_counts (project_id, status, n) VALUES (old.project_id, old.status, -1)
        ON CONFLICT (project_id, status) DO UPDATE SET n = report_status_counts.n - 1;
    END IF;
    IF TG_OP <> 'DELETE' AND new.deleted_at IS NULL THEN
      INSERT INTO report_status_counts (project_id, status, n) VALUES (new.project_id, new.status, 1)
        ON CONFLICT (project_id, status) DO UPDATE SET n = report_status_counts.n + 1;
    END IF;
    RETURN NULL;
  END $$`,
  // Inserted live reports count under their status, once per statement: a row trigger updating the same
  // counter row for each report of a bulk insert left a dead version per report (30,000 in one write: ~2 min).
  `CREATE OR REPLACE FUNCTION report_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO report_status_counts (project_id, status, n)
      SELECT project_id, status, count(*) FROM added WHERE deleted_at IS NULL GROUP BY project_id, status
      ON CONFLICT (project_id, status) DO UPDATE SET n = report_status_counts.n + excluded.n;
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE TRIGGER report_counts_ai AFTER INSERT ON reports REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION report_counts_added()`,
  // Reports changing status, project or deletion move from their old counts to their new ones, once per
  // statement: a row trigger bumping the same counter row per report made a bulk change of 10,000 reports
  // leave 10,000 dead versions of it. Transition tables take no column list, so every update of reports
  // runs it; one that moves no report between counts (most: an occurrence, an edit) writes nothing.
  `CREATE OR REPLACE FUNCTION report_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO report_status_counts (project_id, status, n)
      SELECT project_id, status, sum(d) FROM (
        SELECT project_id, status, -1 AS d FROM prior WHERE deleted_at IS NULL
        UNION ALL
        SELECT project_id, status, 1 AS d FROM updated WHERE deleted_at IS NULL
      ) moves GROUP BY project_id, status HAVING sum(d) <> 0
      ON CONFLICT (project_id, status) DO UPDATE SET n = report_status_counts.n + excluded.n;
    RETURN NULL;
  END $$`,
  // A database made before has a row trigger of this name: dropped once, then replaced.
  dropIfPerRow('report_counts_au', 'reports'),
  `CREATE OR REPLACE TRIGGER report_counts_au AFTER UPDATE ON reports REFERENCING OLD TABLE AS prior NEW TABLE AS updated FOR EACH STATEMENT EXECUTE FUNCTION report_counts_moved()`,
  // A live report removed leaves its count.
  `CREATE OR REPLACE TRIGGER report_counts_ad AFTER DELETE ON reports FOR EACH ROW WHEN (old.deleted_at IS NULL) EXECUTE FUNCTION report_counts_bump()`,
  // A database whose reports predate the triggers (a bulk load that dropped them) is counted once.
  `INSERT INTO report_status_counts (project_id, status, n)
     SELECT project_id, status, count(*) FROM reports WHERE deleted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM report_status_counts) GROUP BY project_id, status`,
]

/** The deleted reports by seq, for a label-only list's total (reports.list-counts.repository.ts `labelOnlyCount`; SQLite probes each report in ~1 µs instead). */
export const deletedReportsPgSql = ['CREATE INDEX IF NOT EXISTS reports_deleted_seq_idx ON reports (seq) WHERE deleted_at IS NOT NULL']
