/**
 * Lookups made once per write. A bulk change emits one event per report inside one write, and each
 * event's subscribers ask the same questions of the project's settings ("does any webhook take
 * bug_updated?", "any active integration?", the SLA rules): on PostgreSQL each is a round trip, so a
 * 10,000-report change sent 30,000 of them. Inside a write the answer cannot change unless that
 * write changes the settings, which no write that emits report events does; so the first answer
 * serves the rest of the write. Outside a write nothing is kept.
 */

/** How an engine tells the write open in this async context (an object per write), if any. */
type ScopeOf = () => object | undefined

const scopes = new WeakMap<object, ScopeOf>()
const memos = new WeakMap<object, Map<string, Promise<unknown>>>()

/** Called by each engine's seam for every handle a write callback may receive. */
export function registerWriteScope(handle: object, scopeOf: ScopeOf): void {
  scopes.set(handle, scopeOf)
}

/**
 * `lookup()`'s answer, asked once per write for each `key` (name the question and its arguments:
 * `webhooks.any:<project>:<event>`); outside a write, asked every time. A failed lookup is not kept.
 */
export function oncePerWrite<T>(handle: object, key: string, lookup: () => Promise<T>): Promise<T> {
  const scope = scopes.get(handle)?.()
  if (!scope) return lookup()
  let memo = memos.get(scope)
  if (!memo) memos.set(scope, (memo = new Map()))
  const known = memo.get(key) as Promise<T> | undefined
  if (known) return known
  const asked = lookup()
  memo.set(key, asked)
  asked.catch(() => memo.delete(key))
  return asked
}
