/**
 * Independent statements of one write, run side by side: on PostgreSQL they go out together on the
 * write's connection (pipelined: one round trip, run by the server in the order they were called);
 * SQLite runs them in turn. Every one is waited for before the first failure (in call order: the
 * cause, not a statement the failed transaction then refused) is thrown, so none is still running
 * when the write rolls back.
 */
export function together<T extends readonly unknown[]>(work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  // By hand rather than Promise.allSettled (whose result objects the submit path paid for ~5 times a filing).
  return new Promise<T>((resolve, reject) => {
    const n = work.length
    const out = new Array<unknown>(n)
    let left = n
    let failedAt = n
    let failure: unknown
    const settled = () => {
      if (--left > 0) return
      if (failedAt < n) reject(failure)
      else resolve(out as unknown as T)
    }
    if (n === 0) return resolve(out as unknown as T)
    for (let i = 0; i < n; i++) {
      const fulfilled = (value: unknown) => {
        out[i] = value
        settled()
      }
      const rejected = (err: unknown) => {
        if (i < failedAt) {
          failedAt = i
          failure = err
        }
        settled()
      }
      // Each statement's own `then`, called in order, rather than through Promise.resolve: a prepared
      // statement on SQLite then runs here and answers at once (db/prepared-fast.ts), where wrapping it
      // cost two more promises and two promise jobs. Both outcomes are handled: `together` carries them.
      const item = work[i] as PromiseLike<unknown> | undefined
      if (typeof item?.then !== 'function') fulfilled(item)
      else {
        try {
          void item.then(fulfilled, rejected)
        } catch (err) {
          rejected(err)
        }
      }
    }
  })
}
