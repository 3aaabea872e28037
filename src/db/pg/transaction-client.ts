import { AsyncLocalStorage } from 'node:async_hooks'

// One Drizzle database for both the pool and the write's transaction. Drizzle gives a transaction
// callback a new handle whose statements run on the transaction's connection, so anything built on
// a handle (a prepared statement, a repository's set of them) was built again for every write: the
// ingest statements alone cost ~1.5 ms of CPU per filing. Here the pool client itself sends each
// statement to the transaction open in the calling async context, if any: statements built once on
// the database run inside whichever write calls them, as on SQLite, whose seam hands every write the
// database itself.

/** What of Bun's SQL client (or a transaction's) this wraps. */
type Client = { unsafe(query: string, params?: unknown[]): unknown }

/** The transaction open in an async context: its connection, and whether it is still open. */
export interface OpenTransaction {
  client: Client
  open: boolean
}

/**
 * `client` with `unsafe` (every statement Drizzle sends) routed to the transaction `begin` opened in
 * the calling async context while it is open; `current()` tells that transaction (one object per
 * transaction, for the seam's write scope).
 */
export function transactionRouted<T extends Client>(client: T): { client: T; current: () => OpenTransaction | undefined } {
  const transactions = new AsyncLocalStorage<OpenTransaction>()
  const current = () => {
    const tx = transactions.getStore()
    return tx?.open ? tx : undefined
  }
  const routed = new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target)
      if (prop === 'unsafe') return (query: string, params?: unknown[]) => (current()?.client ?? target).unsafe(query, params)
      if (prop === 'begin') {
        return (fn: (tx: Client) => unknown) =>
          (value as (f: (tx: Client) => unknown) => unknown).call(target, (txClient: Client) => {
            const tx: OpenTransaction = { client: txClient, open: true }
            return transactions.run(tx, async () => {
              try {
                return await fn(txClient)
              } finally {
                // Work the write left running past its end must not reach a finished transaction.
                tx.open = false
              }
            })
          })
      }
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { client: routed, current }
}
