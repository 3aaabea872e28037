/** Pause between two steps of background catch-up work, the write lock free for the request thread. */
export const STEP_PAUSE_MS = 5

/**
 * Runs background catch-up work as short write transactions with the lock free between them:
 * `step` does one bounded transaction and says (or resolves to) whether work is left. Back to back, such steps kept
 * a request-thread commit waiting in SQLite's busy handler (whose sleeps grow to 100 ms) for up to
 * 735 ms after a burst; with a pause after each, the request thread's writes get in between.
 */
export async function inShortSteps(step: () => boolean | Promise<boolean>, maxSteps: number, pauseMs = STEP_PAUSE_MS): Promise<void> {
  for (let i = 0; i < maxSteps && (await step()); i++) await Bun.sleep(pauseMs)
}
