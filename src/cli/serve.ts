import type { Server } from 'bun'
import { createApp } from '../app'
import { type Config, publicUrlUnset } from '../config/config'
import { checkpointAndClose, deferServerCheckpoints } from '../db/checkpoint'
import { closeDb } from '../db/client'
import { lockDataDir } from '../db/data-dir-lock'
import { databaseReady } from '../db/pg/client'
import { buildDeps } from '../deps'
import { SERVER_BODY_CAP } from '../http/body-limit'
import { describeTrustProxy } from '../http/client-ip'
import { type JobThread, startJobThread } from '../jobs/jobs.thread'
import { loopGuard } from '../lib/background'
import { warmDashboard } from '../../web/server/dashboard'
import { dashboardBundle } from '../../web/server/dashboard-bundle'
import { CliError } from './cli-error'

/** How long a job thread that could not start waits before the next try. */
const JOB_THREAD_RETRY_MS = 5000

/** Why the server cannot listen, for the operator: a port in use is named as such. */
function listenError(config: Config, err: unknown): CliError {
  if ((err as { code?: unknown }).code === 'EADDRINUSE') {
    return new CliError(`port ${config.port} is already in use on ${config.host}: another glitchbox server or another program listens there; stop it, or choose another port (PORT or --port)`)
  }
  return new CliError(`cannot listen on ${config.host}:${config.port}: ${err instanceof Error ? err.message : String(err)}`)
}

/**
 * Refuses a port another process listens on, before anything starts. Elysia's Bun adapter turns
 * `reusePort` on by default: a second server then started on the same port and the kernel gave it
 * about half of the connections (issue 21). The server listens with it off (below); this earlier
 * check only spares a refused server its start-up (database, job thread).
 */
function checkPortFree(config: Config): void {
  try {
    Bun.listen({ hostname: config.host, port: config.port, socket: { data() {} } }).stop(true)
  } catch (err) {
    throw listenError(config, err)
  }
}

/**
 * Runs the server until SIGTERM/SIGINT, then stops accepting, finishes in-flight requests and
 * running jobs (in the job thread) and checkpoints the WAL.
 */
export async function serve(config: Config): Promise<void> {
  // One server per data directory (see db/data-dir-lock.ts), taken before anything in it is touched.
  // On PostgreSQL the database is not in it: nodes share the database, and migrate under its own lock.
  const lock = config.databaseUrl ? null : lockDataDir(config.dataDir)
  let deps: ReturnType<typeof buildDeps>
  try {
    checkPortFree(config)
    deps = buildDeps(config, { cleanTmp: true })
  } catch (err) {
    lock?.release()
    throw err
  }
  try {
    // PostgreSQL: migrated (or refused) before anything runs, so a database that cannot be reached stops start-up with its reason.
    await databaseReady(deps.db)
  } catch (err) {
    await closeDb(deps.db)
    throw err
  }
  const { logger } = deps
  // Every timer and interval of this thread runs its turns through it: a failing turn is logged, never fatal.
  const guard = loopGuard(deps)
  const app = createApp(deps, { dashboard: dashboardBundle })
  // The job thread is started once listening (below): loading its own copy of the modules would
  // otherwise take the second core from this thread during start-up (issue 30). Requests only
  // enqueue jobs, in the database, so the app serves meanwhile; the jobs run once the thread does.
  let jobsStarting: Promise<JobThread | null> | null = null
  let stopping = false
  /**
   * The job thread, started again every few seconds while it cannot start (PostgreSQL gone away just
   * after start-up, say): like every background loop, a failure is logged and never ends the server.
   * Resolves null once the server stops first.
   */
  const startJobsUntilRunning = async (): Promise<JobThread | null> => {
    for (;;) {
      if (stopping) return null
      try {
        return await startJobThread(config, guard)
      } catch (err) {
        logger.error(`the job thread could not start; trying again in ${JOB_THREAD_RETRY_MS / 1000} s`, { error: err instanceof Error ? err.message : String(err) })
      }
      await Bun.sleep(JOB_THREAD_RETRY_MS)
    }
  }

  /** Stops everything but the listener: the job thread; checkpoints the WAL and frees the data directory. */
  const stopBackground = async () => {
    const jobs = await jobsStarting
    await jobs?.stop()
    const { folded, error } = await checkpointAndClose(deps.db)
    // The database cannot be read (see /health): stopped all the same.
    if (error) logger.error('the WAL checkpoint failed on shutdown', { error: String(error) })
    else if (!folded) logger.warn('the WAL could not be checkpointed on shutdown; it is replayed at the next start')
    lock?.release()
  }

  let server: Server<unknown>
  try {
    // Bun.serve over the app's handler, not app.listen: Elysia's listen composes that handler a second
    // time and collects garbage just after the server starts (elysia/dist/adapter/bun), 20–30 ms the
    // first requests waited behind (issue 30). `development` as Elysia sets it (NODE_ENV).
    // reusePort off: with it on, a second server on this port would start and share the traffic.
    server = Bun.serve({
      port: config.port,
      hostname: config.host,
      maxRequestBodySize: SERVER_BODY_CAP,
      idleTimeout: 30,
      reusePort: false,
      development: process.env.NODE_ENV !== 'production',
      fetch: app.fetch,
    })
  } catch (err) {
    // Taken in the moment since checkPortFree: nothing is left running behind the message.
    await stopBackground()
    throw listenError(config, err)
  }
  // What a route's `server` reads (the client's address, http/client-ip.ts).
  app.server = server
  const local = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${server.port}`
  // Says where to go next, for whoever just started the server.
  logger.info(`glitchbox listening: web app at ${local}/, API docs at ${local}/docs`, {
    url: `http://${config.host}:${server.port}`,
    web_app: `${local}/`,
    docs: `${local}/docs`,
    public_url: config.publicUrl,
    data_dir: config.dataDir,
    // Where uploads end up, and whose key opens stored credentials: the two things nodes must share.
    files: config.s3Bucket ? `s3://${config.s3Bucket}/${config.s3Prefix ?? ''}${config.s3Endpoint ? ` at ${config.s3Endpoint}` : ''}` : 'data directory',
    secret_key: config.secretKey ? 'GLITCHBOX_SECRET_KEY' : 'secrets.key',
    version: config.version,
  })
  if (config.databaseUrl && !config.s3Bucket) {
    // Nodes share the database but not this directory: a file one node stored, another cannot serve.
    logger.warn('GLITCHBOX_DATABASE_URL is set without GLITCHBOX_S3_BUCKET: uploaded files stay in this node\'s data directory; with several nodes, set GLITCHBOX_S3_BUCKET so every node serves every file', { data_dir: config.dataDir })
  }
  // Rate limits and votes count per client address: say whose word that address is taken on.
  logger.info(describeTrustProxy(config.trustProxy))
  if (publicUrlUnset(config)) {
    logger.warn(
      `GLITCHBOX_PUBLIC_URL is not set: DSNs, file URLs and mailed links use ${config.publicUrl}, which games and people on other machines cannot reach; set GLITCHBOX_PUBLIC_URL to the address they open this server at`,
      { public_url: config.publicUrl },
    )
  }

  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('shutting down', { signal })
    // stop(false): no new connections, in-flight requests finish.
    await server.stop(false)
    await stopBackground()
    logger.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))

  jobsStarting = startJobsUntilRunning()
  const warm = () => warmDashboard(dashboardBundle).catch((err) => logger.error('the dashboard could not be bundled; / answers 500 until it can', { error: String(err) }))
  // The dashboard shell is loaded now, while /health already answers and the job thread starts, when
  // it is bundled from source (about a second: the sooner the better). The compiled binary only reads
  // its bundled files (~30 ms on this thread): that waits until the job thread runs, so the first
  // requests (a health check) do not wait behind it (issue 30). A visitor who opens the dashboard
  // before it is ready waits for this same load.
  if (!Bun.isStandaloneExecutable) await warm()
  const jobs = await jobsStarting
  if (Bun.isStandaloneExecutable && !stopping) await warm()
  // Stopping already: stopBackground stops the thread and closes the database.
  if (!jobs || stopping) return
  // The job thread now checkpoints the WAL every second; requests no longer pay for it in COMMIT.
  deferServerCheckpoints(deps.db)
  if (jobs.reclaimed > 0) logger.info('resuming jobs cut off by the previous shutdown', { jobs: jobs.reclaimed })
}
