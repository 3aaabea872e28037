import type { Seam } from '../../db/client'
import { randomToken } from '../../lib/ids'
import { createPublicRepository } from './public.repository'

const cache = new WeakMap<object, Map<string, string>>()

/**
 * The server's secret `name` (vote hashing, voter cookies, reply-mail unsubscribe links), created on
 * first use and kept in the database, so restarts and restores keep hashes and links valid.
 */
export async function serverSecret(db: Seam, name: string, now: Date): Promise<string> {
  let kept = cache.get(db)
  if (!kept) cache.set(db, (kept = new Map()))
  const cached = kept.get(name)
  if (cached) return cached
  const value = await createPublicRepository({ db }).secret(name, () => randomToken(32), now)
  kept.set(name, value)
  return value
}
