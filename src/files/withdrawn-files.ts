import type { Seam } from '../db/client'
import type { Backfill } from '../db/post-migrate'
import { createFilesRepository } from './files.repository'
import type { FileStorage } from './storage'

/**
 * Files no longer served by `GET /api/files/{key}`: the screenshots, occurrence screenshots,
 * attachments and replays of soft-deleted reports. The bytes stay (a soft delete keeps the report
 * row), but a download URL someone kept stops working the moment the report is deleted. A deleted
 * project takes its files with it (deleteProject removes them), so it needs no row here.
 *
 * A job then removes the bytes (`removeWithdrawnFiles`): nothing serves them any more, and on a
 * bucket they would cost money for ever.
 *
 * The triggers below fill the table whoever deletes a report (one row or a bulk delete), and also
 * catch a file attached while its report was being deleted (the upload is stored before its row is
 * written). The download reads it in the same statement as the file's own row: one primary-key
 * probe more, no extra round trip.
 */
export const WITHDRAWN_FILES_TABLE = 'withdrawn_files'

/** Keys of the files of report `id` (an SQL expression: `new.id`). */
const keysOfReport = (id: string) => `
  SELECT screenshot_key FROM reports WHERE id = ${id} AND screenshot_key IS NOT NULL
  UNION ALL SELECT screenshot_key FROM report_occurrences WHERE report_id = ${id} AND screenshot_key IS NOT NULL
  UNION ALL SELECT file_key FROM attachments WHERE report_id = ${id}
  UNION ALL SELECT file_key FROM session_replays WHERE report_id = ${id}`

const reportIsDeleted = (id: string) => `(SELECT deleted_at FROM reports WHERE id = ${id}) IS NOT NULL`

/** A trigger withdrawing the file of a row inserted into `table` when its report is already deleted. */
const onInsertIntoDeleted = (table: string, column: string) =>
  `CREATE TRIGGER IF NOT EXISTS withdrawn_files_${table}_ai AFTER INSERT ON ${table}
     WHEN new.${column} IS NOT NULL AND ${reportIsDeleted('new.report_id')} BEGIN
    INSERT OR IGNORE INTO withdrawn_files (key) VALUES (new.${column});
  END`

export const withdrawnFilesSql = [
  'CREATE TABLE IF NOT EXISTS withdrawn_files (key TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID',
  `CREATE TRIGGER IF NOT EXISTS withdrawn_files_report_deleted AFTER UPDATE OF deleted_at ON reports
     WHEN old.deleted_at IS NULL AND new.deleted_at IS NOT NULL BEGIN
    INSERT OR IGNORE INTO withdrawn_files (key) ${keysOfReport('new.id')};
  END`,
  onInsertIntoDeleted('attachments', 'file_key'),
  onInsertIntoDeleted('session_replays', 'file_key'),
  onInsertIntoDeleted('report_occurrences', 'screenshot_key'),
  // A removed file needs no entry any more.
  `CREATE TRIGGER IF NOT EXISTS withdrawn_files_file_removed AFTER DELETE ON files BEGIN
    DELETE FROM withdrawn_files WHERE key = old.key;
  END`,
]

/** Withdraws the files of reports deleted before the table existed (run once, when it is created). */
export const withdrawnFilesBackfill: Backfill = {
  sql: [
    `INSERT OR IGNORE INTO withdrawn_files (key)
      SELECT screenshot_key FROM reports WHERE deleted_at IS NOT NULL AND screenshot_key IS NOT NULL
      UNION ALL SELECT o.screenshot_key FROM report_occurrences o JOIN reports r ON r.id = o.report_id WHERE r.deleted_at IS NOT NULL AND o.screenshot_key IS NOT NULL
      UNION ALL SELECT a.file_key FROM attachments a JOIN reports r ON r.id = a.report_id WHERE r.deleted_at IS NOT NULL
      UNION ALL SELECT s.file_key FROM session_replays s JOIN reports r ON r.id = s.report_id WHERE r.deleted_at IS NOT NULL`,
  ],
}

const SWEEP_BATCH = 200

/**
 * Removes withdrawn files, bytes and rows, `SWEEP_BATCH` at a time (the trigger on `files` forgets
 * each; a key without a row is forgotten here). Answers how many keys it went through.
 */
export async function removeWithdrawnFiles(deps: { db: Seam; files: FileStorage }): Promise<number> {
  const repo = createFilesRepository({ db: deps.db })
  let total = 0
  for (;;) {
    const keys = await repo.withdrawn(SWEEP_BATCH)
    if (keys.length === 0) return total
    await deps.files.remove(deps.db, keys)
    await repo.forgetWithdrawn(keys)
    total += keys.length
  }
}
