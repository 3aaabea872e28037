import type { AppDeps } from '../../app-deps'
import { randomToken } from '../../lib/ids'
import { createPublicRepository } from './public.repository'

const cache = new WeakMap<object, Map<string, string>>()

/**
 * The server's secret `name` (vote hashing, voter cookies, reply-mail unsubscribe links), created on
 * first use and kept in the database, so restarts and restores keep hashes and links valid.
 */
export async function serverSecret(deps: Pick<AppDeps, 'db'>, name: string, now: Date): Promise<string> {
  let kept = cache.get(deps.db)
  if (!kept) cache.set(deps.db, (kept = new Map()))
  const cached = kept.get(name)
  if (cached) return cached
  const value = await createPublicRepository({ db: deps.db }).secret(name, () => randomToken(32), now)
  kept.set(name, value)
  return value
}
