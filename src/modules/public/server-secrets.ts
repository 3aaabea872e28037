import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { randomToken } from '../../lib/ids'
import { serverSecrets } from './public.table'

const cache = new WeakMap<object, Map<string, string>>()

/**
 * The server's secret `name` (vote hashing, voter cookies, reply-mail unsubscribe links), created on
 * first use and kept in the database, so restarts and restores keep hashes and links valid.
 */
export function serverSecret(db: DbOrTx, name: string, now: Date): string {
  let kept = cache.get(db)
  if (!kept) cache.set(db, (kept = new Map()))
  const cached = kept.get(name)
  if (cached) return cached
  db.insert(serverSecrets).values({ name, value: randomToken(32), createdAt: now }).onConflictDoNothing().run()
  const value = db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name)).get()!.value
  kept.set(name, value)
  return value
}
