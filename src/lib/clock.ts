/** Source of "now", injected everywhere so tests can move time. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock that only moves when told; for tests. */
export class FakeClock implements Clock {
  private t: number
  constructor(start: Date | string | number = '2026-01-05T12:00:00Z') {
    this.t = new Date(start).getTime()
  }
  now(): Date {
    return new Date(this.t)
  }
  advance(ms: number): void {
    this.t += ms
  }
  set(to: Date | string | number): void {
    this.t = new Date(to).getTime()
  }
}

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
