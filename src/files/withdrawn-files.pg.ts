// The PostgreSQL form of withdrawn-files.ts: the files of soft-deleted reports are no longer served,
// whoever deletes the report, including a file whose row is written while its report is being deleted.

/** Keys of the files of report `id` (an SQL expression: `new.id`). */
const keysOfReport = (id: string) => `
  SELECT screenshot_key FROM reports WHERE id = ${id} AND screenshot_key IS NOT NULL
  UNION ALL SELECT screenshot_key FROM report_occurrences WHERE report_id = ${id} AND screenshot_key IS NOT NULL
  UNION ALL SELECT file_key FROM attachments WHERE report_id = ${id}
  UNION ALL SELECT file_key FROM session_replays WHERE report_id = ${id}`

/**
 * The function and trigger withdrawing the file of a row inserted into `table` when its report is
 * already deleted. The report is read in the body: a trigger's WHEN cannot hold a subquery on PostgreSQL.
 */
const onInsertIntoDeleted = (table: string, column: string) => [
  `CREATE OR REPLACE FUNCTION withdrawn_files_${table}_add() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF (SELECT deleted_at FROM reports WHERE id = new.report_id) IS NOT NULL THEN
      INSERT INTO withdrawn_files (key) VALUES (new.${column}) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE TRIGGER withdrawn_files_${table}_ai AFTER INSERT ON ${table} FOR EACH ROW
    WHEN (new.${column} IS NOT NULL) EXECUTE FUNCTION withdrawn_files_${table}_add()`,
]

export const withdrawnFilesPgSql = [
  'CREATE TABLE IF NOT EXISTS withdrawn_files (key text PRIMARY KEY NOT NULL)',
  `CREATE OR REPLACE FUNCTION withdrawn_files_report_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO withdrawn_files (key) ${keysOfReport('new.id')} ON CONFLICT DO NOTHING;
    RETURN NULL;
  END $$`,
  // A report soft-deleted withdraws all its files at once.
  `CREATE OR REPLACE TRIGGER withdrawn_files_report_deleted AFTER UPDATE OF deleted_at ON reports FOR EACH ROW
    WHEN (old.deleted_at IS NULL AND new.deleted_at IS NOT NULL) EXECUTE FUNCTION withdrawn_files_report_deleted()`,
  // A file attached to a report already deleted is withdrawn as it is written.
  ...onInsertIntoDeleted('attachments', 'file_key'),
  ...onInsertIntoDeleted('session_replays', 'file_key'),
  ...onInsertIntoDeleted('report_occurrences', 'screenshot_key'),
  `CREATE OR REPLACE FUNCTION withdrawn_files_forget() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM withdrawn_files WHERE key = old.key;
    RETURN NULL;
  END $$`,
  // A removed file needs no entry any more.
  `CREATE OR REPLACE TRIGGER withdrawn_files_file_removed AFTER DELETE ON files FOR EACH ROW EXECUTE FUNCTION withdrawn_files_forget()`,
]
