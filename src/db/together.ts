/**
 * Independent statements of one write, run side by side: on PostgreSQL they go out together on the
 * write's connection (pipelined: one round trip, run by the server in the order they were called);
 * SQLite runs them in turn. Every one is waited for before the first failure (in call order: the
 * cause, not a statement the failed transaction then refused) is thrown, so none is still running
 * when the write rolls back.
 */
export async function together<T extends readonly unknown[]>(work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(work)
  const failed = settled.find((r) => r.status === 'rejected')
  if (failed) throw failed.reason
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T
}
