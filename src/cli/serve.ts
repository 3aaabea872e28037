import { join } from 'node:path'
import { createApp } from '../app'
import type { Config } from '../config/config'
import { deferCheckpoints } from '../db/checkpoint'
import { rawSqlite } from '../db/client'
import { buildDeps, DB_FILE } from '../deps'
import { SERVER_BODY_CAP } from '../http/body-limit'
import { describeTrustProxy } from '../http/client-ip'
import { startJobThread } from '../jobs/jobs.thread'
import { similarOpenTitlesQuery } from '../modules/sdk/duplicates'
import { startInboxFiling } from '../modules/sdk/report-inbox'
import { scoreInline, startScoringThread } from '../modules/sdk/scoring'
import { warmDashboard } from '../../web/server/dashboard'
import { dashboardBundle } from '../../web/server/dashboard-bundle'

/**
 * Runs the server until SIGTERM/SIGINT, then stops accepting, finishes in-flight requests and
 * running jobs (in the job thread) and checkpoints the WAL.
 */
export async function serve(config: Config): Promise<void> {
  const deps = buildDeps(config, { cleanTmp: true })
  const { logger } = deps
  const app = createApp(deps, { dashboard: dashboardBundle })
  // Jobs first: the server is only reachable (and only answers /health) once everything runs.
  const jobs = await startJobThread(config)
  // The job thread now checkpoints the WAL every second; requests no longer pay for it in COMMIT.
  deferCheckpoints(rawSqlite(deps.db))
  // From now on SDK submits answered during a load spike wait in the inbox, filed between requests.
  deps.requestsBehind = jobs.requestsBehind
  const stopFiling = startInboxFiling(deps, jobs.requestsBehind)
  // Their answers are scored beside this thread; without the scoring thread, on it.
  const index = { similarOpenTitles: similarOpenTitlesQuery(rawSqlite(deps.db)) }
  const scoring = await startScoringThread(join(config.dataDir, DB_FILE), (req) => scoreInline(index, req), logger).catch((err) => {
    logger.error('the scoring thread did not start; SDK answers are scored on the request thread', { error: String(err) })
    return null
  })
  if (scoring) deps.scoring = scoring
  if (jobs.reclaimed > 0) logger.info('resuming jobs cut off by the previous shutdown', { jobs: jobs.reclaimed })
  // Bundled before listening (from source it takes a moment), so the first visitor does not wait.
  await warmDashboard(dashboardBundle).catch((err) => logger.error('the dashboard could not be bundled; / answers 500 until it can', { error: String(err) }))
  app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: SERVER_BODY_CAP, idleTimeout: 30 })
  const server = app.server!
  const local = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${server.port}`
  // Says where to go next, for whoever just started the server.
  logger.info(`glitchbox listening: web app at ${local}/, API docs at ${local}/docs`, {
    url: `http://${config.host}:${server.port}`,
    web_app: `${local}/`,
    docs: `${local}/docs`,
    public_url: config.publicUrl,
    data_dir: config.dataDir,
    version: config.version,
  })
  // Rate limits and votes count per client address: say whose word that address is taken on.
  logger.info(describeTrustProxy(config.trustProxy))

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('shutting down', { signal })
    // stop(false): no new connections, in-flight requests finish.
    await server.stop(false)
    // Reports still queued stay in the inbox and are filed after the next start.
    stopFiling()
    scoring?.stop()
    await jobs.stop()
    const sqlite = rawSqlite(deps.db)
    // Right after the job thread stops, the checkpoint can find the database busy for a moment
    // (seen in about half of quick start-stop runs); it is retried for up to ~2 s so the WAL is
    // folded in and truncated.
    let busy = 1
    for (let tries = 0; busy !== 0 && tries < 100; tries++) {
      if (tries > 0) await Bun.sleep(20)
      busy = sqlite.prepare<{ busy: number }, []>('PRAGMA wal_checkpoint(TRUNCATE)').all()[0]!.busy
    }
    if (busy !== 0) logger.warn('the WAL could not be checkpointed on shutdown; it is replayed at the next start')
    sqlite.close()
    logger.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
