import { AppError } from './errors'

const MB = 1024 * 1024

export interface DecodeBudgetOptions {
  /** Decoded bytes that all requests together may hold at once. */
  capacity: number
  /** The share a body is first decoded within: an ordinary crash report or envelope fits. */
  smallShare: number
  /** Longest a request waits for its share before it is answered 503. */
  maxWaitMs: number
}

/**
 * 256 MB decoded at once across the server: two bodies at the 100 MB decompression cap, or a few
 * hundred ordinary envelopes (a few KB to 1 MB each). Measured: scripts/bench/decode-bombs.ts.
 */
export const DECODE_BUDGET: DecodeBudgetOptions = { capacity: 256 * MB, smallShare: 1 * MB, maxWaitMs: 5_000 }

/** Seconds a refused client is told to wait. */
const RETRY_AFTER_S = 5

const busy = () =>
  new AppError(503, 'the server is busy decoding other uploads; retry shortly', { 'retry-after': String(RETRY_AFTER_S) })

interface Waiter {
  bytes: number
  grant: (release: () => void) => void
}

/**
 * The server's decoded-bytes budget for request bodies that inflate (the Sentry routes' gzip,
 * deflate and br bodies, Unreal's zlib container): without it, 30 concurrent 1 MB bombs held 3 GB.
 * A request holds its share from decoding until it is done with the bytes; a request that does not
 * fit waits in arrival order, and past `maxWaitMs` gets 503 with `Retry-After`. One per server.
 */
export class DecodeBudget {
  private used = 0
  private waiting: Waiter[] = []
  /** Most bytes held at once so far (tests and the bench read it). */
  peak = 0

  constructor(readonly options: DecodeBudgetOptions = DECODE_BUDGET) {}

  /** Bytes held now. */
  get inUse(): number {
    return this.used
  }

  /** Holds `bytes` (at most the capacity), waiting for them in turn; resolves with the release (safe to call twice). */
  hold(bytes: number): Promise<() => void> {
    const want = Math.min(Math.max(0, bytes), this.options.capacity)
    if (!this.waiting.length && this.used + want <= this.options.capacity) return Promise.resolve(this.take(want))
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        bytes: want,
        grant: (release) => {
          clearTimeout(timer)
          resolve(release)
        },
      }
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w !== waiter)
        // The next in line may fit now that this one stops waiting.
        this.drain()
        reject(busy())
      }, this.options.maxWaitMs)
      this.waiting.push(waiter)
    })
  }

  /**
   * Decodes a body within a share of the budget and runs `use` on the result while still holding it
   * (the bytes stay in memory until the request is done with them). `decode(share)` answers null
   * when the body decodes past `share`: the small share goes back first (so no request holds one
   * share while it waits for another) and `decode` runs again with `full` bytes.
   */
  async within<T, R>(full: number, decode: (share: number) => Promise<T | null>, use: (decoded: T) => Promise<R>): Promise<R> {
    const small = Math.min(this.options.smallShare, full)
    const fitted = await this.holding(small, async () => {
      const decoded = await decode(small)
      return decoded === null ? null : { answer: await use(decoded) }
    })
    if (fitted) return fitted.answer
    let decodedLarge = false
    try {
      return await this.holding(full, async () => {
        decodedLarge = true
        // At the full share (the route's decompression limit) a larger body is a 413, never null.
        return use((await decode(full))!)
      })
    } finally {
      // A large body's buffers are garbage now; left to the collector's own pace, bomb after bomb
      // took RSS past 1 GB with the budget at 256 MB (scripts/bench/decode-bombs.ts: 50 bombs at once,
      // 1.05 GB peak without this, 0.52 GB with it). Only bodies past the small share pay for it.
      if (decodedLarge) Bun.gc(true)
    }
  }

  private async holding<R>(bytes: number, run: () => Promise<R>): Promise<R> {
    const release = await this.hold(bytes)
    try {
      return await run()
    } finally {
      release()
    }
  }

  private take(bytes: number): () => void {
    this.used += bytes
    this.peak = Math.max(this.peak, this.used)
    let released = false
    return () => {
      if (released) return
      released = true
      this.used -= bytes
      this.drain()
    }
  }

  private drain(): void {
    while (this.waiting.length && this.used + this.waiting[0]!.bytes <= this.options.capacity) {
      const next = this.waiting.shift()!
      next.grant(this.take(next.bytes))
    }
  }
}
