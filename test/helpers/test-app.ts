import { createApp } from '../../src/app'
import { loadConfig } from '../../src/config/config'
import { closeDb, rawSqlite } from '../../src/db/client'
import { databaseReady } from '../../src/db/pg/client'
import { buildDeps } from '../../src/deps'
import { createTestDatabase, dropTestDatabaseLater, nextTestDatabase, TEST_SECRET_KEY, testPgServer } from './pg-engine'
import { JobRunner } from '../../src/jobs/jobs.runner'
import { collectJobs } from '../../src/jobs/registry'
import { FakeClock } from '../../src/lib/clock'
import { createLogger } from '../../src/lib/logger'
import type { MailTransport } from '../../src/mail/mailer'
import { removeTempDir, tempDir } from './temp-dirs'

export interface RequestOptions {
  body?: unknown
  /** Session token, sent as `Authorization: Bearer`. */
  token?: string
  apiKey?: string
  headers?: Record<string, string>
  /** Client address, sent as X-Forwarded-For (the test app trusts the proxy). */
  ip?: string
}

export interface TestResponse<T = any> {
  status: number
  headers: Headers
  /** Parsed JSON when the answer is JSON, else the text. */
  body: T
}

/**
 * A fresh data directory, app, fake clock and job runner; `close()` removes the directory.
 * `transport`: a fake transport, null (the default: mail stays in the outbox) or 'smtp' for the real
 * SMTP transport built from `GLITCHBOX_SMTP_URL` in `env`. `engine: 'sqlite'`: SQLite even in the
 * suite's PostgreSQL mode (a test of moving a SQLite data directory).
 */
export function createTestApp(opts: { env?: Record<string, string>; transport?: MailTransport | null | 'smtp'; start?: string; engine?: 'sqlite' } = {}) {
  const dir = tempDir('test')
  // In the suite's PostgreSQL mode (pg-engine.ts), each app gets a database cloned from the template.
  const pgDatabase = testPgServer() && opts.engine !== 'sqlite' ? nextTestDatabase() : null
  const engineEnv: Record<string, string> = pgDatabase ? { GLITCHBOX_DATABASE_URL: `${testPgServer()}/${pgDatabase}`, GLITCHBOX_SECRET_KEY: TEST_SECRET_KEY } : {}
  const config = loadConfig({ GLITCHBOX_DATA_DIR: dir, GLITCHBOX_TRUST_PROXY: 'true', GLITCHBOX_PUBLIC_URL: 'http://glitchbox.test', ...engineEnv, ...opts.env }, {}, '0.0.0-test')
  const clock = new FakeClock(opts.start)
  const logs: Record<string, unknown>[] = []
  const logger = createLogger('debug', {}, (line) => logs.push(JSON.parse(line)))
  const deps = buildDeps(config, {
    clock,
    logger,
    transport: opts.transport === 'smtp' ? undefined : (opts.transport ?? null),
    beforeMigrations: pgDatabase ? () => createTestDatabase(pgDatabase) : undefined,
  })
  const app = createApp(deps)
  const runner = new JobRunner({ db: deps.db, clock, logger, ...collectJobs(deps) })
  // A server listens once its database is migrated (main.ts); so does the test app take requests, so
  // that a request's time (and /health's 2 s ping) never includes the cloned database's start-up.
  const ready = pgDatabase ? databaseReady(deps.db) : undefined
  let ipCounter = 0

  async function request<T = any>(method: string, path: string, o: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { 'x-forwarded-for': o.ip ?? `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`, ...o.headers }
    if (o.token) headers.authorization = `Bearer ${o.token}`
    if (o.apiKey) headers['x-api-key'] = o.apiKey
    let body: BodyInit | undefined
    if (o.body instanceof FormData || typeof o.body === 'string' || o.body instanceof Uint8Array) body = o.body as BodyInit
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body)
      headers['content-type'] ??= 'application/json'
    }
    await ready
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }))
    const text = await res.text()
    let parsed: unknown = text
    if ((res.headers.get('content-type') ?? '').includes('json')) parsed = text ? JSON.parse(text) : null
    return { status: res.status, headers: res.headers, body: parsed as T }
  }

  return {
    app,
    deps,
    config,
    clock,
    runner,
    logs,
    dir,
    request,
    sqlite: rawSqlite(deps.db),
    close() {
      const closed = closeDb(deps.db)
      removeTempDir(dir)
      if (pgDatabase) return closed.then(() => dropTestDatabaseLater(pgDatabase))
    },
  }
}

export type TestApp = ReturnType<typeof createTestApp>
