import { join } from 'node:path'
import type { AppDeps } from './app-deps'
import type { Config } from './config/config'
import { createDb, openSqlite } from './db/client'
import { DataDirError, dataDirError, makeDataDirPrivate } from './db/data-dir'
import { migrate, SchemaTooNewError } from './db/migrate'
import { createPgDb } from './db/pg/client'
import { migratePg } from './db/pg/migrate'
import { DomainEvents } from './events/domain-events'
import { createStorage, type FileStorage } from './files/storage'
import { DecodeBudget } from './http/decode-budget'
import { RateLimiter } from './http/rate-limit'
import { useSdkCallerClock } from './http/sdk-callers'
import { SdkRefusals } from './http/sdk-refusals'
import { JobQueue } from './jobs/jobs.queue'
import { type Clock, systemClock } from './lib/clock'
import { createLogger, type Logger } from './lib/logger'
import { createMailer, type MailTransport } from './mail/mailer'
import { createSmtpTransport } from './mail/smtp-transport'
import { databaseParts } from './modules/registry'
import { createSecrets } from './secrets/secrets'

export const DB_FILE = 'glitchbox.db'

/**
 * Opens (creating and migrating) the data directory, owner-only (db/data-dir.ts), and the database: SQLite
 * in the data directory, or PostgreSQL at `GLITCHBOX_DATABASE_URL`; then wires the services every module
 * uses. A directory or database that cannot be opened throws a DataDirError naming the path and the cause.
 */
export function buildDeps(
  config: Config,
  overrides: { clock?: Clock; logger?: Logger; transport?: MailTransport | null; cleanTmp?: boolean; beforeMigrations?: () => Promise<void> } = {},
): AppDeps {
  const clock = overrides.clock ?? systemClock
  const logger = overrides.logger ?? createLogger(config.logLevel)
  const dbFile = join(config.dataDir, DB_FILE)
  let files: FileStorage
  try {
    const modes = makeDataDirPrivate(config.dataDir, config.databaseUrl ? null : dbFile)
    if (modes.tightened.length || modes.stillOpen.length) {
      logger.warn('the data directory was readable by other users: tightened to owner-only (directory 0700, database files 0600)', { tightened: modes.tightened, could_not_tighten: modes.stillOpen })
    }
    files = createStorage(config, { clock, logger, cleanTmp: overrides.cleanTmp })
  } catch (err) {
    throw dataDirError(config.dataDir, err)
  }
  const db = config.databaseUrl ? openPostgres(config.databaseUrl, overrides.beforeMigrations) : openDataDirDatabase(dbFile)
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
    secrets: createSecrets({ dataDir: config.dataDir, secretKey: config.secretKey }),
    mailer: createMailer({ db, jobs, clock, logger, from: config.mailFrom, transport }),
    events: new DomainEvents(),
    rateLimiter: new RateLimiter(clock),
    decodeBudget: new DecodeBudget(),
    sdkRefusals: new SdkRefusals(clock),
    instanceId: crypto.randomUUID(),
  }
}

/** SQLite in the data directory, migrated, with the seam's read-only connection beside the writer. */
function openDataDirDatabase(dbFile: string) {
  let sqlite: ReturnType<typeof openSqlite> | undefined
  try {
    sqlite = openSqlite(dbFile)
    migrate(sqlite, databaseParts)
  } catch (err) {
    sqlite?.close()
    throw err instanceof SchemaTooNewError ? err : dataDirError(dbFile, err)
  }
  // The seam's reads go to a read-only connection of their own (src/db/client.ts), opened once migrated.
  return createDb(sqlite, { reader: openSqlite(dbFile, { readonly: true }) })
}

/**
 * PostgreSQL at `url`, migrated under the nodes' advisory lock (src/db/pg/migrate.ts) before its first
 * query; start-up awaits `databaseReady`. `before`: run first (tests create the database there).
 */
function openPostgres(url: string, before?: () => Promise<void>) {
  return createPgDb(url, {
    prepare: async (pool) => {
      try {
        await before?.()
        await migratePg(pool, databaseParts)
      } catch (err) {
        if (err instanceof SchemaTooNewError) throw err
        throw new DataDirError(`cannot open the PostgreSQL database of GLITCHBOX_DATABASE_URL: ${err instanceof Error ? err.message : String(err)}`)
      }
    },
  })
}
