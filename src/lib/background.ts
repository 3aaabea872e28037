import type { Clock } from './clock'
import type { Logger } from './logger'
import { throttledErrorLog } from './throttled-log'

/**
 * Runs `fn` as one turn of the background loop `name` (a timer, an interval, a cron tick): the
 * wrapper never throws and never rejects. A timer callback that throws, or an async one that
 * rejects, is an uncaught error, and Bun ends the process on it: one failing loop took the whole
 * server down when its database file broke (issue 21). The error is logged instead, at most once a
 * minute per loop (see throttled-log.ts). For an async `fn` the wrapper gives a promise that
 * settles when `fn` does, so a caller can still wait for the turn.
 */
export interface LoopGuard {
  <A extends unknown[]>(name: string, fn: (...args: A) => Promise<unknown>): (...args: A) => Promise<void>
  <A extends unknown[]>(name: string, fn: (...args: A) => unknown): (...args: A) => void
}

/** A guard for the loops of one component (the job runner, the server's request thread): it keeps their log throttle, by loop name. */
export function loopGuard(deps: { logger: Logger; clock: Clock }): LoopGuard {
  const log = throttledErrorLog(deps)
  const failed = (name: string, err: unknown) =>
    log(name, 'a background loop failed; it keeps running', {
      loop: name,
      error: err instanceof Error ? err.message : String(err),
      ...(err instanceof Error && err.stack ? { stack: err.stack } : {}),
    })
  return ((name: string, fn: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      try {
        const result = fn(...args)
        if (result instanceof Promise) return result.then(() => undefined, (err: unknown) => failed(name, err))
      } catch (err) {
        failed(name, err)
      }
    }) as LoopGuard
}
