/**
 * How far behind the request thread's event loop is, shared with the job thread through a
 * SharedArrayBuffer. The request thread measures the lateness of a 10 ms timer; the job runner
 * reads it before claiming work and, while requests are queueing, takes jobs at a trickle so that
 * background work (webhook deliveries, mail) does not take CPU from a burst of game clients on a
 * small machine. Jobs are only delayed, never dropped, and run at full speed once the burst passes.
 */
import type { LoopGuard } from '../lib/background'

const PROBE_MS = 10
/** Lateness that means requests are waiting for the thread. */
export const BUSY_LAG_MS = 4
/** While busy, at most one claim per this interval. */
export const BUSY_CLAIM_INTERVAL_MS = 20

export interface RequestPressure {
  /** The shared cell, handed to the job thread. */
  buffer: SharedArrayBuffer
  /** Stops the probe. */
  stop(): void
}

/** Starts the probe on the request thread, its ticks run through the thread's loop guard. */
export function measureRequestPressure(guard: LoopGuard): RequestPressure {
  const buffer = new SharedArrayBuffer(4)
  const cell = new Int32Array(buffer)
  let expected = performance.now() + PROBE_MS
  let smoothed = 0
  const timer = setInterval(guard('jobs.request-pressure', () => {
    const now = performance.now()
    const lag = Math.max(0, now - expected)
    expected = now + PROBE_MS
    // A moving average, so one slow tick (a GC pause) does not throttle the jobs.
    smoothed = smoothed * 0.7 + lag * 0.3
    Atomics.store(cell, 0, Math.round(smoothed * 100))
  }), PROBE_MS)
  timer.unref?.()
  return { buffer, stop: () => clearInterval(timer) }
}

/** Reads the request thread's smoothed lag (ms) from the shared cell. */
export function requestLagMs(buffer: SharedArrayBuffer): number {
  return Atomics.load(new Int32Array(buffer), 0) / 100
}
