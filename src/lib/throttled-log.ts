import { type Clock, MINUTE } from './clock'
import type { Logger } from './logger'

/** A failure that repeats is logged at most this often; one failing every 25 ms would otherwise flood the log. */
export const REPEAT_LOG_EVERY_MS = MINUTE

/**
 * An error log for failures that repeat (a background loop, a health probe): per key, at most one
 * line a minute, the first at once. Each line carries `failures`: how many it stands for, the
 * ones held back since the previous line included.
 */
export function throttledErrorLog(deps: { logger: Logger; clock: Clock }): (key: string, msg: string, fields: Record<string, unknown>) => void {
  const seen = new Map<string, { loggedAt: number; heldBack: number }>()
  return (key, msg, fields) => {
    const now = deps.clock.now().getTime()
    const s = seen.get(key)
    if (s && now - s.loggedAt < REPEAT_LOG_EVERY_MS) {
      s.heldBack++
      return
    }
    deps.logger.error(msg, { ...fields, failures: (s?.heldBack ?? 0) + 1 })
    seen.set(key, { loggedAt: now, heldBack: 0 })
  }
}
