import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { AppDeps } from './app-deps'
import type { Config } from './config/config'
import { createDb, openSqlite } from './db/client'
import { dataDirError } from './db/data-dir'
import { migrate, SchemaTooNewError } from './db/migrate'
import { DomainEvents } from './events/domain-events'
import { createLocalStorage } from './files/storage'
import { DecodeBudget } from './http/decode-budget'
import { RateLimiter } from './http/rate-limit'
import { useSdkCallerClock } from './http/sdk-callers'
import { SdkRefusals } from './http/sdk-refusals'
import { JobQueue } from './jobs/jobs.queue'
import { type Clock, systemClock } from './lib/clock'
import { createLogger, type Logger } from './lib/logger'
import { createMailer, type MailTransport } from './mail/mailer'
import { createSmtpTransport } from './mail/smtp-transport'

export const DB_FILE = 'glitchbox.db'

/**
 * Opens (creating and migrating) the data directory and wires the services every module uses. A
 * directory or database that cannot be opened throws a DataDirError naming the path and the cause.
 */
export function buildDeps(config: Config, overrides: { clock?: Clock; logger?: Logger; transport?: MailTransport | null; cleanTmp?: boolean } = {}): AppDeps {
  const clock = overrides.clock ?? systemClock
  const logger = overrides.logger ?? createLogger(config.logLevel)
  let files: ReturnType<typeof createLocalStorage>
  try {
    mkdirSync(config.dataDir, { recursive: true })
    files = createLocalStorage({ dataDir: config.dataDir, publicUrl: config.publicUrl, clock, cleanTmp: overrides.cleanTmp })
  } catch (err) {
    throw dataDirError(config.dataDir, err)
  }
  const dbFile = join(config.dataDir, DB_FILE)
  let sqlite: ReturnType<typeof openSqlite> | undefined
  try {
    sqlite = openSqlite(dbFile)
    migrate(sqlite)
  } catch (err) {
    sqlite?.close()
    throw err instanceof SchemaTooNewError ? err : dataDirError(dbFile, err)
  }
  const db = createDb(sqlite)
  useSdkCallerClock(db, clock)
  const jobs = new JobQueue(clock)
  const transport = overrides.transport !== undefined ? overrides.transport : config.smtpUrl ? createSmtpTransport(config.smtpUrl) : null
  return {
    config,
    db,
    clock,
    logger,
    jobs,
    files,
    mailer: createMailer({ db, jobs, clock, logger, from: config.mailFrom, transport }),
    events: new DomainEvents(),
    rateLimiter: new RateLimiter(clock),
    decodeBudget: new DecodeBudget(),
    sdkRefusals: new SdkRefusals(clock),
    instanceId: crypto.randomUUID(),
  }
}
