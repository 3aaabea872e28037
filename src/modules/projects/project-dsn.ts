import type { SqliteHandle } from '../../db/client'

/**
 * Every project's DSN id (`projects.dsn_id`, the number in `https://KEY@host/DSN_ID`): shipped game
 * builds keep their DSN for years, so an id is never given to a second project, even after the
 * first is deleted. `project_dsn_ids` hands them out (AUTOINCREMENT never reuses a value), and a
 * trigger gives one to every new project, whoever inserts it (the API, the CLI, tests, benchmarks).
 */
export const PROJECT_DSN_IDS_TABLE = 'project_dsn_ids'

export const projectDsnSql = [
  `CREATE TABLE IF NOT EXISTS project_dsn_ids (dsn_id INTEGER PRIMARY KEY AUTOINCREMENT, project_id TEXT NOT NULL)`,
  `CREATE TRIGGER IF NOT EXISTS projects_dsn_id_ai AFTER INSERT ON projects WHEN new.dsn_id IS NULL BEGIN
    INSERT INTO project_dsn_ids (project_id) VALUES (new.id);
    UPDATE projects SET dsn_id = (SELECT max(dsn_id) FROM project_dsn_ids) WHERE id = new.id;
  END`,
]

/** Gives the projects of a database from before DSN ids theirs, oldest project first. */
export function backfillProjectDsnIds(sqlite: SqliteHandle): void {
  const missing = sqlite.query<{ id: string }, []>('SELECT id FROM projects WHERE dsn_id IS NULL ORDER BY created_at, rowid').all()
  const take = sqlite.prepare<{ dsn_id: number }, [string]>('INSERT INTO project_dsn_ids (project_id) VALUES (?) RETURNING dsn_id')
  const set = sqlite.prepare<unknown, [number, string]>('UPDATE projects SET dsn_id = ? WHERE id = ?')
  for (const p of missing) set.run(take.get(p.id)!.dsn_id, p.id)
}
