// The real server on PostgreSQL (issue 31): `GLITCHBOX_DATABASE_URL=postgres://… GLITCHBOX_SECRET_KEY=…
// glitchbox serve` on an empty database, the CLI against the same URL, and /health while PostgreSQL goes
// away and comes back. Server processes from source; runs in the suite's PostgreSQL mode only.
import { SQL } from 'bun'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { embeddedMigrations } from '../../src/db/pg/migrations.embedded'
import { dropTestDatabase, TEST_SECRET_KEY, testPgServer } from '../helpers/pg-engine'
import { removeTempDataDirs, ROOT, runCli, startServer, tempDataDir } from '../helpers/server-process'
import { until } from '../helpers/until'

afterAll(removeTempDataDirs)

/** A server on PostgreSQL migrates an empty database first: on a loaded CI machine that took up to ~20 s. */
const START_MS = 60_000
/** A test that starts servers (or runs CLI commands) waits for them: its own timeout. */
const SERVER_TEST_MS = 180_000

let n = 0
/** A new, empty database on `server` (no template: the server must create every table itself). */
async function emptyDatabase(server: string): Promise<string> {
  const name = `gb_e_nodes_${process.pid}_${n++}`
  const admin = new SQL(`${server}/postgres`, { max: 1 })
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await admin.unsafe(`CREATE DATABASE "${name}"`)
  } finally {
    await admin.close()
  }
  return name
}

const health = async (url: string) => {
  const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) })
  return { status: res.status, body: await res.json() }
}

describe.skipIf(!testPgServer())('glitchbox on PostgreSQL', () => {
  let database: string
  let url: string
  let sql: SQL
  beforeEach(async () => {
    database = await emptyDatabase(testPgServer()!)
    url = `${testPgServer()}/${database}`
    sql = new SQL(url, { max: 2 })
  })
  afterEach(async () => {
    await sql.close()
    await dropTestDatabase(database)
  })
  const env = () => ({ GLITCHBOX_DATABASE_URL: url, GLITCHBOX_SECRET_KEY: TEST_SECRET_KEY })

  it('serve starts on an empty database, migrates it, and serves health, the web app, the API, the SDK routes and the jobs', async () => {
    const s = await startServer({ env: env(), startTimeoutMs: START_MS })
    try {
      expect(await health(s.url)).toEqual({ status: 200, body: { status: 'healthy', database: { engine: 'postgresql' } } })
      const migrated = (await sql`SELECT tag FROM glitchbox_migrations ORDER BY tag`) as { tag: string }[]
      expect(migrated.map((m) => m.tag)).toEqual(embeddedMigrations.map((m) => m.tag).sort())
      // The data directory holds no database of its own.
      expect(await Bun.file(join(s.dataDir, 'glitchbox.db')).exists()).toBe(false)

      const page = await fetch(`${s.url}/`)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toContain('text/html')
      const signup = await fetch(`${s.url}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'lead@studio.test', password: 'correct horse', name: 'Lead' }) })
      expect(signup.status).toBe(201)
      const { token } = (await signup.json()).data
      const created = await fetch(`${s.url}/api/projects`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ name: 'Night Shift' }) })
      expect(created.status).toBe(201)
      const project = (await created.json()).data as { slug: string; api_key: string }
      expect((await (await fetch(`${s.url}/api/projects`, { headers: { authorization: `Bearer ${token}` } })).json()).data).toEqual(
        expect.arrayContaining([expect.objectContaining({ slug: project.slug })]),
      )
      // The SDK routes answer through the same database: a key that is not the project's is refused.
      const refused = await fetch(`${s.url}/api/bugs/submit`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk_live_not-a-key' }, body: JSON.stringify({ title: 'x', description: 'y' }) })
      expect({ status: refused.status, body: await refused.json() }).toEqual({ status: 401, body: { ok: false, error: 'invalid API key' } })

      // The job thread claims from PostgreSQL: a due job is run and recorded (a mail whose outbox row is gone is done at once).
      const now = Date.now()
      const [job] = (await sql`INSERT INTO jobs (kind, payload, status, run_at, attempts, max_attempts, created_at, updated_at)
        VALUES ('mail.send', '{"outboxId":999999}', 'pending', ${now}, 0, 3, ${now}, ${now}) RETURNING id`) as { id: number }[]
      await until('the job thread to run the job', async () => ((await sql`SELECT status FROM jobs WHERE id = ${job!.id}`) as { status: string }[])[0]?.status === 'done')
    } finally {
      expect(await s.stop('SIGTERM')).toBe(0)
    }
    // Stopped cleanly, and a second start finds the database migrated and starts again.
    const again = await startServer({ env: env(), startTimeoutMs: START_MS })
    try {
      expect((await health(again.url)).status).toBe(200)
    } finally {
      expect(await again.stop('SIGTERM')).toBe(0)
    }
  }, SERVER_TEST_MS)

  it('a second server starts on the database while the first one runs: no data-directory lock stands in the way', async () => {
    const a = await startServer({ env: env(), startTimeoutMs: START_MS })
    try {
      const b = await startServer({ env: env(), startTimeoutMs: START_MS })
      try {
        for (const s of [a, b]) expect(await health(s.url)).toEqual({ status: 200, body: { status: 'healthy', database: { engine: 'postgresql' } } })
      } finally {
        expect(await b.stop()).toBe(0)
      }
    } finally {
      expect(await a.stop()).toBe(0)
    }
  }, SERVER_TEST_MS)

  it('refuses to start without GLITCHBOX_SECRET_KEY, naming it, and touches nothing', async () => {
    const r = await runCli(['serve'], { GLITCHBOX_DATABASE_URL: url, GLITCHBOX_SECRET_KEY: '', GLITCHBOX_DATA_DIR: tempDataDir() }, undefined, { timeoutMs: 15_000 })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('glitchbox: GLITCHBOX_DATABASE_URL needs GLITCHBOX_SECRET_KEY')
    expect(await sql`SELECT 1 FROM pg_tables WHERE schemaname = 'public'`).toHaveLength(0)
  }, SERVER_TEST_MS)

  it('refuses to start, saying why, when the database cannot be reached', async () => {
    const r = await runCli(['serve'], { ...env(), GLITCHBOX_DATABASE_URL: `${testPgServer()}/gb_e_nodes_missing_${process.pid}`, GLITCHBOX_DATA_DIR: tempDataDir() }, undefined, { timeoutMs: 30_000 })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('glitchbox: cannot open the PostgreSQL database of GLITCHBOX_DATABASE_URL')
  }, SERVER_TEST_MS)

  it('glitchbox migrate and admin commands work against GLITCHBOX_DATABASE_URL and exit', async () => {
    const dataDir = tempDataDir()
    const cli = (args: string[]) => runCli(args, { ...env(), GLITCHBOX_DATA_DIR: dataDir }, undefined, { timeoutMs: 30_000 })
    expect(await cli(['migrate'])).toMatchObject({ code: 0, stdout: expect.stringContaining('applied 0000_') })
    expect(await cli(['migrate'])).toMatchObject({ code: 0, stdout: 'database is up to date\n' })
    expect(await cli(['admin', 'create-user', 'ops@studio.test', '--password', 'hunter2hunter2'])).toMatchObject({ code: 0, stdout: 'created ops@studio.test\n' })
    expect([...(await sql`SELECT email FROM users`)]).toEqual([{ email: 'ops@studio.test' }])
    expect(await cli(['admin', 'maintenance', 'Moving racks', '--for', '1h'])).toMatchObject({ code: 0 })
    expect([...(await sql`SELECT message FROM maintenance_banners WHERE cleared_at IS NULL`)]).toEqual([{ message: 'Moving racks' }])
    const stats = await cli(['admin', 'stats', '--json'])
    expect(stats.code).toBe(0)
    const parsed = JSON.parse(stats.stdout)
    expect(parsed.database).toMatchObject({ engine: 'postgresql' })
    expect(parsed.database.bytes).toBeGreaterThan(0)
    expect(parsed.rows).toMatchObject({ users: 1, maintenance_banners: 1 })
    expect((await cli(['admin', 'stats'])).stdout).toContain('(PostgreSQL, GLITCHBOX_DATABASE_URL)')
    // Nothing of the database went to the data directory.
    expect(await Bun.file(join(dataDir, 'glitchbox.db')).exists()).toBe(false)
  }, SERVER_TEST_MS)

  it('glitchbox backup and restore exit non-zero and say what to use instead (pg_dump, bucket versioning)', async () => {
    for (const args of [['backup', join(tempDataDir(), 'b.tar.gz')], ['restore', join(ROOT, 'no-such.tar.gz')]]) {
      const r = await runCli(args, { ...env(), GLITCHBOX_DATA_DIR: tempDataDir() }, undefined, { timeoutMs: 30_000 })
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('pg_dump')
      expect(r.stderr).toContain('versioning')
      expect(r.stderr).toContain('GLITCHBOX_SECRET_KEY')
    }
  }, SERVER_TEST_MS)
})

/** A private PostgreSQL cluster of this file (scripts/pg/cluster.sh), so stopping it disturbs no other test. */
const PRIVATE_DIR = '/tmp/pg-e'
const PRIVATE_PORT = 55433
const cluster = async (cmd: 'start' | 'stop') => {
  const proc = Bun.spawn(['bash', join(ROOT, 'scripts/pg/cluster.sh'), cmd, PRIVATE_DIR, String(PRIVATE_PORT)], { stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`cluster.sh ${cmd} failed: ${err}`)
  return out.trim()
}

describe.skipIf(!testPgServer())('/health while PostgreSQL goes away', () => {
  afterAll(() => cluster('stop'))

  it('answers 503 naming the engine while PostgreSQL is down, keeps running, and answers 200 by itself once it is back', async () => {
    const server = await cluster('start')
    const database = await emptyDatabase(server)
    const s = await startServer({ env: { GLITCHBOX_DATABASE_URL: `${server}/${database}`, GLITCHBOX_SECRET_KEY: TEST_SECRET_KEY }, startTimeoutMs: START_MS })
    try {
      expect(await health(s.url)).toEqual({ status: 200, body: { status: 'healthy', database: { engine: 'postgresql' } } })
      await cluster('stop')
      let down: Awaited<ReturnType<typeof health>> | undefined
      await until('/health to answer 503 with PostgreSQL stopped', async () => (down = await health(s.url)).status === 503)
      expect(down!.body).toMatchObject({ status: 'unhealthy', error: expect.stringMatching(/^the database cannot be read: /), database: { engine: 'postgresql' } })
      // Several answers in a row while it stays down, and the process lives on (no loop crashed it).
      for (let i = 0; i < 3; i++) expect((await health(s.url)).status).toBe(503)
      expect(s.proc.exitCode).toBeNull()
      await cluster('start')
      await until('/health to answer 200 again once PostgreSQL is back', async () => (await health(s.url)).status === 200)
      expect(await health(s.url)).toEqual({ status: 200, body: { status: 'healthy', database: { engine: 'postgresql' } } })
    } finally {
      expect(await s.stop('SIGTERM')).toBe(0)
      const admin = new SQL(`${server}/postgres`, { max: 1 })
      await admin.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).finally(() => admin.close())
    }
  }, SERVER_TEST_MS)
})
