import type { Config } from './config/config'
import type { Db } from './db/client'
import type { DomainEvents } from './events/domain-events'
import type { DecodeBudget } from './http/decode-budget'
import type { FileStorage } from './files/storage'
import type { RateLimiter } from './http/rate-limit'
import type { SdkRefusals } from './http/sdk-refusals'
import type { JobQueue } from './jobs/jobs.queue'
import type { Clock } from './lib/clock'
import type { Logger } from './lib/logger'
import type { Mailer } from './mail/mailer'
import type { Secrets } from './secrets/secrets'

/** Everything a module may use; built once by `buildDeps` (main and tests alike). */
export interface AppDeps {
  config: Config
  db: Db
  clock: Clock
  logger: Logger
  files: FileStorage
  /** The key encrypting stored provider credentials (`GLITCHBOX_SECRET_KEY`, else `secrets.key`). */
  secrets: Secrets
  mailer: Mailer
  jobs: JobQueue
  events: DomainEvents
  rateLimiter: RateLimiter
  /** Decoded bytes that inflating request bodies may hold at once, server-wide (Sentry and Unreal routes). */
  decodeBudget: DecodeBudget
  /** Requests the SDK budget refused in the last hour, per SDK key (for the setup checklist). */
  sdkRefusals: SdkRefusals
  /** Distinguishes apps built in one process (tests), so named Elysia plugins register once per app. */
  instanceId: string
}
