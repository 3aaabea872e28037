import type { Logger } from '../../lib/logger'
import { findPossibleDuplicates, type SimilarOpenTitles } from './duplicates'
import { scoreSentimentText, type SentimentLevel } from './sentiment'

/** What a new report's answer carries besides its id and number. */
export interface Scores {
  sentiment: { score: number; level: SentimentLevel }
  possibleDuplicates: number[]
}

/** A report to score: `text` comes from `sentimentText` (already cut, so little crosses threads). */
export interface ScoreRequest {
  projectId: string
  title: string
  text: string
}

/** Scores reports for their answers: on the scoring thread when the server runs one, else on the calling thread. */
export interface Scorer {
  score(req: ScoreRequest): Promise<Scores>
}

export type ScoringMessage = { type: 'open'; dbFile: string } | ({ type: 'score'; id: number } & ScoreRequest)
export type ScoringReply =
  | { type: 'ready' }
  | { type: 'failed'; error: string }
  | { type: 'scored'; id: number; sentiment?: Scores['sentiment']; possibleDuplicates?: number[]; error?: string }

/** Scores on the calling thread, with the duplicate index of its connection. */
export function scoreInline(index: { similarOpenTitles: SimilarOpenTitles }, req: ScoreRequest): Scores {
  return { sentiment: scoreSentimentText(req.text), possibleDuplicates: findPossibleDuplicates(index, req.projectId, req.title) }
}

/** Requests in flight past which the calling thread scores for itself (the thread is falling behind). */
const MAX_IN_FLIGHT = 256
/** A request unanswered this long is scored on the calling thread (the thread hangs). */
const STUCK_MS = 5000

/**
 * Starts the scoring thread (scoring.worker.ts): during a load spike, reports answered from the SDK
 * inbox get their sentiment and possible duplicates there, beside the request thread, which is the
 * server's bottleneck (these two were ~40% of its time per queued report). Each call costs the
 * request thread one message each way (~6 µs). Whenever the thread cannot answer (it failed, is far
 * behind or stopped), the report is scored inline with `inline`, so an answer never waits on it.
 */
export async function startScoringThread(dbFile: string, inline: (req: ScoreRequest) => Scores, logger: Logger): Promise<Scorer & { stop(): void }> {
  // In the binary the worker is an extra entry point scripts/build.ts compiles in, addressed by its
  // build path (as .js); from source it is the file beside this one.
  const worker = new Worker(Bun.isStandaloneExecutable ? './modules/sdk/scoring.worker.js' : new URL('./scoring.worker.ts', import.meta.url).href)
  const pending = new Map<number, { req: ScoreRequest; resolve: (s: Scores) => void; sentAt: number }>()
  let nextId = 0
  let running = false
  let lastWarning = -Infinity
  let failedSinceWarning = 0

  const fallBack = (id: number) => {
    const p = pending.get(id)
    if (!p) return
    pending.delete(id)
    p.resolve(inline(p.req))
  }
  const stopAll = () => {
    running = false
    for (const id of [...pending.keys()]) fallBack(id)
  }

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the scoring thread did not start within 10 s')), 10_000)
    worker.addEventListener('error', (e) => reject(new Error(`the scoring thread failed to start: ${e.message}`)), { once: true })
    worker.onmessage = (e: MessageEvent<ScoringReply>) => {
      const r = e.data
      if (r.type === 'ready' || r.type === 'failed') {
        clearTimeout(timer)
        if (r.type === 'failed') reject(new Error(`the scoring thread failed to start: ${r.error}`))
        else resolve()
        return
      }
      if (r.type !== 'scored') return
      const p = pending.get(r.id)
      if (!p) return
      if (r.error || !r.sentiment || !r.possibleDuplicates) {
        // At most one line a minute: a thread failing every report would otherwise log each one.
        failedSinceWarning++
        if (performance.now() - lastWarning > 60_000) {
          logger.warn('the scoring thread could not score reports; scored on the request thread', { reports: failedSinceWarning, error: r.error })
          lastWarning = performance.now()
          failedSinceWarning = 0
        }
        fallBack(r.id)
        return
      }
      pending.delete(r.id)
      p.resolve({ sentiment: r.sentiment, possibleDuplicates: r.possibleDuplicates })
    }
    worker.postMessage({ type: 'open', dbFile } satisfies ScoringMessage)
  }).catch((err) => {
    worker.terminate()
    throw err
  })
  running = true
  worker.addEventListener('error', (e) => {
    logger.error('the scoring thread failed; reports are scored on the request thread', { error: e.message })
    stopAll()
  })
  worker.addEventListener('close', stopAll)
  const sweep = setInterval(() => {
    const now = performance.now()
    for (const [id, p] of pending) if (now - p.sentAt > STUCK_MS) fallBack(id)
  }, 1000)
  sweep.unref()

  return {
    score(req) {
      if (!running || pending.size >= MAX_IN_FLIGHT) return Promise.resolve(inline(req))
      const id = nextId++
      return new Promise<Scores>((resolve) => {
        pending.set(id, { req, resolve, sentAt: performance.now() })
        worker.postMessage({ type: 'score', id, ...req } satisfies ScoringMessage)
      })
    },
    stop() {
      clearInterval(sweep)
      stopAll()
      worker.terminate()
    },
  }
}
