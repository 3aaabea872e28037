import type { Db } from '../../db/client'
import { INVALID_API_KEY } from '../../http/auth.plugin'
import { unauthorized } from '../../http/errors'
import { type SdkCaller, sdkCallerOf } from '../../http/sdk-callers'
import { createProjectsRepository } from '../projects/projects.repository'

/**
 * The project a Sentry request is for: its key (the project's SDK key, CONTRACT.md "Sentry SDKs")
 * and the DSN id of the path must name the same public project. A wrong key, a wrong or unknown DSN
 * id, or a project with `is_public` off answers 401 `{"detail": "invalid API key"}`.
 */
export async function sentryCaller(db: Db, dsnId: string, key: string | null | undefined): Promise<SdkCaller> {
  const caller = key ? await sdkCallerOf(db, key) : undefined
  if (!caller || caller.project.dsnId === null || String(caller.project.dsnId) !== dsnId) throw unauthorized(INVALID_API_KEY)
  return caller
}

/**
 * 401 unless the DSN id of the path names a public project: checked before any of a body is read
 * when the key can only be inside it (an envelope's header), so a request to a DSN that does not
 * exist costs no reading or decoding at all. The key is checked once read (sentryCaller).
 */
export async function checkDsnId(db: Db, dsnId: string): Promise<void> {
  const id = /^\d{1,15}$/.test(dsnId) ? Number(dsnId) : null
  if (id === null || !(await createProjectsRepository({ db }).publicDsn(id))) throw unauthorized(INVALID_API_KEY)
}
