/**
 * Work queued per key in this process: `inTurn(key, fn)` runs `fn` once every earlier call for the
 * same key has settled (whether it succeeded or not), and calls for other keys run side by side. A
 * key holds memory only while it has work queued.
 */
export function keyedTurns(): <T>(key: string, fn: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>()
  return (key, fn) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(fn, fn)
    const settled = run.then(
      () => undefined,
      () => undefined,
    )
    tails.set(key, settled)
    void settled.then(() => {
      if (tails.get(key) === settled) tails.delete(key)
    })
    return run
  }
}
