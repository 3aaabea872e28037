import type { Config } from './config/config'
import type { Db } from './db/client'
import type { DomainEvents } from './events/domain-events'
import type { FileStorage } from './files/storage'
import type { RateLimiter } from './http/rate-limit'
import type { JobQueue } from './jobs/jobs.queue'
import type { Clock } from './lib/clock'
import type { Logger } from './lib/logger'
import type { Mailer } from './mail/mailer'
import type { Scorer } from './modules/sdk/scoring'

/** Everything a module may use; built once by `buildDeps` (main and tests alike). */
export interface AppDeps {
  config: Config
  db: Db
  clock: Clock
  logger: Logger
  files: FileStorage
  mailer: Mailer
  jobs: JobQueue
  events: DomainEvents
  rateLimiter: RateLimiter
  /**
   * True while the request thread is behind (its event loop runs late); set by `serve` once the job
   * thread measures it. SDK submits then go through the inbox (modules/sdk/report-inbox.ts).
   */
  requestsBehind?: () => boolean
  /**
   * Scores reports answered from the SDK inbox on the scoring thread; set by `serve` once it runs
   * (modules/sdk/scoring.ts). Without it they are scored on the request thread.
   */
  scoring?: Scorer
  /** Distinguishes apps built in one process (tests), so named Elysia plugins register once per app. */
  instanceId: string
}
