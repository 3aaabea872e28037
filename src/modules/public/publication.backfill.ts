import type { Backfill } from '../../db/post-migrate'

/** The migration that added the publication columns; this backfill runs once, right after it. */
export const PUBLICATION_MIGRATION = '0027_public_curation'

// An activity row that is the team's touch: a status change, a label, a public comment, by a person.
const touch = `a.actor_id IS NOT NULL AND ((a.action = 'updated' AND a.field = 'status') OR a.action = 'labeled' OR (a.action = 'commented' AND a.new_value = 'public'))`

/**
 * Hand-written backfill of migration 0027 (issue 25). Projects from before the `publish` setting
 * keep today's public pages: every report not private, auto-filed ones included (new projects
 * default to `triaged` without them). Reports the team had already touched (a status change, a
 * label, a public comment in their activity) get `triaged_at`, so switching such a project to
 * `triaged` later shows them.
 */
export const publicationBackfill: Backfill = {
  sql: [
    `INSERT INTO project_settings (project_id, kind, value, updated_at)
     SELECT id, 'tracker', json_object('publish', 'all', 'include_auto_filed', json('true')), CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM projects WHERE true
     ON CONFLICT (project_id, kind) DO UPDATE SET value = json_set(value, '$.publish', 'all', '$.include_auto_filed', json('true'))`,
    `UPDATE reports SET triaged_at = (SELECT min(a.created_at) FROM activity a WHERE a.report_id = reports.id AND ${touch})
     WHERE triaged_at IS NULL AND id IN (SELECT a.report_id FROM activity a WHERE ${touch})`,
  ],
}
