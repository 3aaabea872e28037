/**
 * Polls `done` until it holds, every `everyMs`, for at most `ms`; then fails naming `what`. For what
 * happens on its own time (a job claimed, a node started, a server back up): bounded, so a stuck
 * system fails the test instead of hanging it, and generous, so a loaded CI machine does not.
 */
export async function until(what: string, done: () => Promise<boolean> | boolean, { ms = 20_000, everyMs = 200 } = {}): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`waited ${ms / 1000} s for ${what}`)
    await Bun.sleep(everyMs)
  }
}
