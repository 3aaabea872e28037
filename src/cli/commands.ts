import { join } from 'node:path'
import { type Config, ConfigError, configDocs, loadConfig } from '../config/config'
import type { AppDeps } from '../app-deps'
import { closeDb, openSqlite } from '../db/client'
import { migrate, SchemaTooNewError } from '../db/migrate'
import { createPgDb, pgPool } from '../db/pg/client'
import { migratePg } from '../db/pg/migrate'
import { buildDeps, DB_FILE } from '../deps'
import { copyFilesToBucket } from '../files/copy-to-bucket'
import { createLogger, silentLogger } from '../lib/logger'
import { adminCreateUser, adminResetPassword, adminVerifyEmail } from '../modules/auth/auth.cli'
import { adminSetPlan } from '../modules/billing/billing.cli'
import { clearBanners, setBanner } from '../modules/maintenance/maintenance.service'
import { formatStats, storageStats } from '../modules/retention/retention.stats'
import { VERSION } from '../version'
import type { ParsedArgs } from './args'
import { CliError } from './cli-error'
import { backup, restore } from './backup'
import { migrateToPostgres } from '../db/pg/copy-from-sqlite'
import { serve } from './serve'
import { databaseParts } from '../modules/registry'

const USAGE = `glitchbox ${VERSION}: bug reports for games, in one binary

Usage:
  glitchbox [serve] [--port N] [--host H] [--data-dir DIR] ...   run the server (default)
  glitchbox migrate                        create or upgrade the database, then exit
  glitchbox migrate-to-postgres            copy the SQLite database of GLITCHBOX_DATA_DIR into the empty PostgreSQL of GLITCHBOX_DATABASE_URL
  glitchbox backup FILE                    write a consistent snapshot (database + files) to FILE (.tar.gz)
  glitchbox restore FILE                   unpack a backup into an empty data directory
  glitchbox admin create-user EMAIL [--password P]
  glitchbox admin reset-password EMAIL
  glitchbox admin verify EMAIL             mark an email address verified (servers without SMTP mail no link)
  glitchbox admin set-plan EMAIL self_hosted|free|pro|studio
  glitchbox admin stats [--json]           database and files size, free disk, rows per table, oldest retained telemetry
  glitchbox admin maintenance "TEXT" [--until ISO-DATE | --for 30m|2h|1d]
  glitchbox admin maintenance --clear
  glitchbox admin copy-files-to-bucket     copy the files of the data directory into GLITCHBOX_S3_BUCKET (once, before serving from it)
  glitchbox healthcheck                    exit 0 when the local server answers /health (for Docker)
  glitchbox version                        print the version (also --version, -v)
  glitchbox --help

Every command works on GLITCHBOX_DATA_DIR, or on the PostgreSQL database of GLITCHBOX_DATABASE_URL when it is
set (there backup and restore say what to use instead: pg_dump, bucket versioning), also while a server runs.
Flags of serve mirror the environment: --port = PORT, --data-dir = GLITCHBOX_DATA_DIR, --trust-proxy = GLITCHBOX_TRUST_PROXY, ...

Environment:
${configDocs.map((d) => `  ${d.env.padEnd(34)} ${d.doc}${d.default !== undefined ? ` (default ${d.default})` : ''}`).join('\n')}
  GLITCHBOX_PROVIDER_URL_<KEY>       base URL override of an external provider (e.g. _STRIPE, _LINEAR)
`

/** What `backup` and `restore` say on PostgreSQL: the database and the files are not in the data directory, so no archive of it holds them. */
const POSTGRES_BACKUP = [
  'backup and restore work on the SQLite data directory; this server uses PostgreSQL (GLITCHBOX_DATABASE_URL). Instead:',
  '  - the database: pg_dump -Fc "$GLITCHBOX_DATABASE_URL" -f glitchbox.dump (restore into an empty database with pg_restore -d URL glitchbox.dump), or your provider\'s snapshots;',
  '  - the files: the bucket of GLITCHBOX_S3_BUCKET with versioning or replication turned on (files kept in the data directory: copy its files/ folder);',
  '  - the key: GLITCHBOX_SECRET_KEY, kept apart from both (without it stored credentials cannot be decrypted).',
].join('\n')

const durationRe = /^(\d+)(m|h|d)$/

function parseUntil(flags: Record<string, string>, now: Date): Date | null {
  if (flags.until) {
    const d = new Date(flags.until)
    if (Number.isNaN(d.getTime())) throw new CliError(`--until: not a date: ${flags.until}`)
    return d
  }
  if (flags.for) {
    const m = durationRe.exec(flags.for)
    if (!m) throw new CliError(`--for: expected a duration like 30m, 2h or 1d, got ${flags.for}`)
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'm' | 'h' | 'd']
    return new Date(now.getTime() + Number(m[1]) * unit)
  }
  return null
}

/** `glitchbox admin …` on the database of the configuration (SQLite in the data directory, or PostgreSQL), closed after. */
async function admin(config: Config, args: string[], flags: Record<string, string>, out: (s: string) => void): Promise<void> {
  const deps = buildDeps(config, { logger: silentLogger })
  try {
    await adminCommand(deps, args, flags, out)
  } finally {
    // A PostgreSQL pool left open would keep the command from exiting.
    await closeDb(deps.db)
  }
}

async function adminCommand(deps: AppDeps, args: string[], flags: Record<string, string>, out: (s: string) => void): Promise<void> {
  const { config } = deps
  const [sub, ...rest] = args
  const now = deps.clock.now()
  // Domain functions throw plain Errors for operator mistakes (unknown email, bad plan): print them as such.
  const operatorError = (err: unknown) => {
    throw new CliError(err instanceof Error ? err.message : String(err))
  }
  switch (sub) {
    case 'create-user': {
      if (!rest[0]) throw new CliError('usage: glitchbox admin create-user EMAIL [--password P]')
      const created = await adminCreateUser(deps, rest[0], flags.password).catch(operatorError)
      return out(flags.password ? `created ${rest[0]}` : `created ${rest[0]} with password: ${created!.password}`)
    }
    case 'reset-password': {
      if (!rest[0]) throw new CliError('usage: glitchbox admin reset-password EMAIL')
      const reset = await adminResetPassword(deps, rest[0]).catch(operatorError)
      return out(`new password for ${rest[0]}: ${reset!.password} (all sessions signed out)`)
    }
    case 'verify': {
      if (!rest[0]) throw new CliError('usage: glitchbox admin verify EMAIL')
      try {
        const { alreadyVerified } = await adminVerifyEmail(deps, rest[0])
        return out(alreadyVerified ? `${rest[0]} was already verified` : `${rest[0]} is now verified`)
      } catch (err) {
        return operatorError(err)
      }
    }
    case 'set-plan': {
      if (!rest[0] || !rest[1]) throw new CliError('usage: glitchbox admin set-plan EMAIL self_hosted|free|pro|studio')
      try {
        await adminSetPlan(deps, rest[0], rest[1])
      } catch (err) {
        operatorError(err)
      }
      return out(`${rest[0]} is now on the ${rest[1]} plan`)
    }
    case 'stats': {
      const stats = await storageStats(config, deps.db)
      return out(flags.json ? JSON.stringify(stats, null, 2) : formatStats(stats))
    }
    case 'copy-files-to-bucket': {
      // A bucket that fails says why in the log (the command's own logger is silent).
      const r = await copyFilesToBucket(config, deps.db, createLogger(config.logLevel)).catch(operatorError)
      const bucket = `s3://${config.s3Bucket}/${config.s3Prefix ?? ''}`
      return out(`copied ${r!.copied} files (${r!.bytes} bytes) to ${bucket}; ${r!.present} already there; ${r!.missing} missing from ${config.dataDir}/files`)
    }
    case 'maintenance': {
      if (flags.clear) {
        await clearBanners(deps.db, now)
        return out('maintenance banner cleared')
      }
      const text = rest[0]
      if (!text) throw new CliError('usage: glitchbox admin maintenance "TEXT" [--until DATE | --for 2h] | --clear')
      const until = parseUntil(flags, now)
      await setBanner(deps.db, text, until, now)
      return out(`maintenance banner set${until ? ` until ${until.toISOString()}` : ''}`)
    }
    default:
      throw new CliError(`unknown admin command: ${sub ?? '(none)'}\n\n${USAGE}`)
  }
}

/** Runs one command; resolves when it is done (serve: once it listens and its job thread runs). */
export async function runCommand({ command, positional, flags }: ParsedArgs, env: Record<string, string | undefined>, out: (s: string) => void = console.log): Promise<void> {
  if (command === 'help' || flags.help) return out(USAGE)
  if (command === 'version') return out(VERSION)
  let config: Config
  try {
    const { help: _h, until: _u, for: _f, clear: _c, password: _p, json: _j, ...configFlags } = flags
    config = loadConfig(env, configFlags, VERSION)
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message)
    throw err
  }
  switch (command) {
    case 'serve':
      return serve(config)
    case 'migrate': {
      if (config.databaseUrl) {
        const db = createPgDb(config.databaseUrl)
        try {
          const { applied } = await migratePg(pgPool(db)!, databaseParts).catch((err) => {
            if (err instanceof SchemaTooNewError) throw err
            throw new CliError(`cannot migrate the PostgreSQL database of GLITCHBOX_DATABASE_URL: ${err instanceof Error ? err.message : String(err)}`)
          })
          return out(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date')
        } finally {
          await closeDb(db)
        }
      }
      const sqlite = openSqlite(join(config.dataDir, DB_FILE))
      try {
        const { applied } = migrate(sqlite, databaseParts)
        return out(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date')
      } finally {
        sqlite.close()
      }
    }
    case 'migrate-to-postgres': {
      const { tables, rows } = await migrateToPostgres(config, databaseParts, out)
      return out(`copied ${rows} row(s) of ${tables} table(s) into PostgreSQL; files stay where they are (see "Beyond one machine" in the README)`)
    }
    case 'backup': {
      if (config.databaseUrl) throw new CliError(POSTGRES_BACKUP)
      if (!positional[0]) throw new CliError('usage: glitchbox backup FILE')
      const r = await backup(config.dataDir, positional[0])
      // What the archive cannot hold, said where the operator reads it.
      const outside = [
        config.s3Bucket && `the files are in the bucket ${config.s3Bucket}, not in the archive: keep them with the bucket's versioning or replication`,
        config.secretKey && 'the key of stored credentials is GLITCHBOX_SECRET_KEY, not in the archive: keep it with the archive',
      ].filter(Boolean)
      return out([`backup written to ${positional[0]} (${r.files} files, ${r.bytes} bytes)`, ...outside].join('\n'))
    }
    case 'restore': {
      if (config.databaseUrl) throw new CliError(POSTGRES_BACKUP)
      if (!positional[0]) throw new CliError('usage: glitchbox restore FILE')
      await restore(config.dataDir, positional[0])
      return out(`restored ${positional[0]} into ${config.dataDir}`)
    }
    case 'admin':
      return admin(config, positional, flags, out)
    case 'healthcheck': {
      const res = await fetch(`http://127.0.0.1:${config.port}/health`, { signal: AbortSignal.timeout(3000) }).catch(() => null)
      if (!res) throw new CliError('unhealthy (no answer)')
      if (!res.ok) {
        // The server's reason (a database it cannot read, a full disk), for `docker inspect` to show.
        const reason = await res.json().then((b: { error?: unknown }) => b?.error, () => undefined)
        throw new CliError(`unhealthy (${res.status}${typeof reason === 'string' ? `: ${reason}` : ''})`)
      }
      return out('healthy')
    }
    default:
      throw new CliError(`unknown command: ${command}\n\n${USAGE}`)
  }
}
