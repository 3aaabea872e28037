import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/config'
import { openSqlite } from '../../src/db/client'
import { buildDeps, DB_FILE } from '../../src/deps'
import { silentLogger } from '../../src/lib/logger'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { onSqlite } from '../helpers/pg-engine'
import { removeTempDataDirs, runCli, startServer, tempDataDir } from '../helpers/server-process'
import { studioDataDir } from '../helpers/studio-data-dir'
import type { TestApp } from '../helpers/test-app'

afterAll(removeTempDataDirs)

describe('the server process', () => {
  it.skipIf(!onSqlite)('serves health, the API under /api and /api/v1, and the docs; stops cleanly on SIGTERM (SQLite: the engine /health names, the WAL truncated on exit)', async () => {
    const s = await startServer()
    try {
      expect(await (await fetch(`${s.url}/health`)).json()).toEqual({ status: 'healthy', database: { engine: 'sqlite' } })
      const api = await fetch(`${s.url}/api/v1/maintenance/active`)
      expect(api.headers.get('x-ratelimit-limit')).toBe('300')
      expect((await api.json()).ok).toBe(true)
      const spec = await (await fetch(`${s.url}/openapi.json`)).json()
      expect(spec.openapi).toMatch(/^3\./)
      expect(Object.keys(spec.paths)).toContain('/api/maintenance/active')
      const docs = await (await fetch(`${s.url}/docs`)).text()
      expect(docs).toContain('/docs/assets/scalar.js')
      expect(docs).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)/)
      expect((await fetch(`${s.url}/docs/assets/scalar.js`)).status).toBe(200)
    } finally {
      expect(await s.stop('SIGTERM')).toBe(0)
    }
    // The WAL was checkpointed and truncated on the way out.
    const wal = join(s.dataDir, 'glitchbox.db-wal')
    expect(!existsSync(wal) || Bun.file(wal).size === 0).toBe(true)
  })

  it('shows a maintenance banner set from the CLI while the server runs', async () => {
    const s = await startServer()
    try {
      const set = await runCli(['admin', 'maintenance', 'Upgrading the database', '--for', '2h'], { GLITCHBOX_DATA_DIR: s.dataDir })
      expect(set.code, set.stderr).toBe(0)
      const banner = (await (await fetch(`${s.url}/api/maintenance/active`)).json()).data
      expect(banner).toMatchObject({ active: true, message: 'Upgrading the database' })
      expect(new Date(banner.ends_at).getTime()).toBeGreaterThan(Date.now() + 110 * 60_000)
      const clear = await runCli(['admin', 'maintenance', '--clear'], { GLITCHBOX_DATA_DIR: s.dataDir })
      expect(clear.code, clear.stderr).toBe(0)
      expect((await (await fetch(`${s.url}/api/maintenance/active`)).json()).data.active).toBe(false)
    } finally {
      await s.stop()
    }
  })

  it('refuses to start on a bad configuration value, naming the variable', async () => {
    const r = await runCli(['serve'], { PORT: 'abc', GLITCHBOX_DATA_DIR: tempDataDir() })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('PORT')
  })
})

/** A fresh data directory holding a Studio account with one project (closed again before a server opens it). */
describe('big uploads over HTTP', () => {
  it.skipIf(!onSqlite)('stores concurrent 5 MB base64 screenshots byte for byte (body chunks are released as they are parsed) (SQLite: reads the database file)', async () => {
    const { dataDir, project } = await studioDataDir()
    const shots = [1, 2, 3, 4].map((seed) => {
      const png = Buffer.alloc(5 * 1024 * 1024 + seed * 777)
      for (let i = 0; i < png.length; i++) png[i] = (i * (seed * 2 + 1) + (i >> 11)) & 0xff
      png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
      return png
    })
    const s = await startServer({ dataDir })
    let keys: string[]
    try {
      const answers = await Promise.all(
        shots.map(async (png, k) => {
          const body = JSON.stringify({ title: `Sky texture ${k}`, description: 'See the screenshot', screenshot: `data:image/png;base64,${png.toString('base64')}` })
          const res = await fetch(`${s.url}/api/bugs/submit`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': project.apiKey }, body })
          return { status: res.status, body: await res.json() }
        }),
      )
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201])
      // Under this load the reports may be answered from the inbox and filed a moment later.
      const check = openSqlite(join(dataDir, DB_FILE), { readonly: true })
      const screenshotKey = (id: string) => check.query<{ key: string }, [string]>('SELECT screenshot_key AS key FROM reports WHERE id = ?').get(id)?.key
      for (let i = 0; i < 100 && answers.some((a) => !screenshotKey(a.body.data.id)); i++) await Bun.sleep(50)
      keys = answers.map((a) => screenshotKey(a.body.data.id)!)
      check.close()
    } finally {
      await s.stop()
    }
    const after = buildDeps(loadConfig({ GLITCHBOX_DATA_DIR: dataDir }), { logger: silentLogger })
    for (const [k, key] of keys.entries()) {
      const file = await after.files.open(after.db, key)
      expect(Buffer.from(await file!.body.arrayBuffer()).equals(shots[k]!)).toBe(true)
    }
    after.db.$client.close()
  })
})

describe('SDK submit spikes', () => {
  it.skipIf(!onSqlite)('lists every acknowledged report at once, and keeps each exactly once across kill -9 (SQLite: reads the database file)', async () => {
    const { dataDir, project, token } = await studioDataDir()
    const first = await startServer({ dataDir, env: { GLITCHBOX_TRUST_PROXY: 'true' } })
    const acked: string[] = []
    let sent = 0
    // Eight clients submit without pause; the server is killed in the middle of it.
    const client = async (c: number) => {
      for (;;) {
        const title = `Spike report ${c}-${sent++}`
        const res = await fetch(`${first.url}/api/bugs/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': project.apiKey, 'x-forwarded-for': `10.1.${c}.${sent % 250}` },
          body: JSON.stringify({ title, description: 'Launch day.' }),
        }).catch(() => null)
        if (!res) return
        if (res.status === 201) acked.push(title)
        else return
      }
    }
    const clients = Array.from({ length: 8 }, (_, c) => client(c))
    // Acknowledged means filed: the team API lists the first burst of reports right away.
    while (acked.length < 40) await Bun.sleep(5)
    const seen = [...acked]
    const listed = await fetch(`${first.url}/api/projects/${project.slug}/bugs?q=Spike`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())
    expect(listed.data.total).toBeGreaterThanOrEqual(seen.length)
    await Bun.sleep(300)
    expect(await first.stop('SIGKILL')).not.toBe(0)
    await Promise.all(clients)
    expect(acked.length).toBeGreaterThan(40)

    const second = await startServer({ dataDir })
    try {
      const db = openSqlite(join(dataDir, DB_FILE), { readonly: true })
      const stored = db.query<{ title: string; n: number }, []>('SELECT title, report_number AS n FROM reports ORDER BY n').all()
      const occurrences = db.query<{ n: number }, []>('SELECT count(*) AS n FROM report_occurrences').get()!.n
      db.close()
      const titles = new Set(stored.map((r) => r.title))
      // Nothing acknowledged is lost, nothing is filed twice, numbers have no gap.
      expect(acked.filter((t) => !titles.has(t))).toEqual([])
      expect(titles.size).toBe(stored.length)
      expect(occurrences).toBe(stored.length)
      expect(stored.map((r) => r.n)).toEqual(Array.from({ length: stored.length }, (_, i) => i + 1))
    } finally {
      await second.stop()
    }
  })
})

describe('backup and restore', () => {
  it.skipIf(!onSqlite)('round-trips a consistent snapshot taken while writes are going on (SQLite: backup archives the data directory)', async () => {
    const dataDir = tempDataDir()
    const config = loadConfig({ GLITCHBOX_DATA_DIR: dataDir })
    const deps = buildDeps(config, { logger: silentLogger })
    const t = { deps, clock: deps.clock } as unknown as TestApp
    const owner = await createUser(t)
    const project = await createProject(t, owner)
    let writing = true
    let written = 0
    const writer = (async () => {
      while (writing) {
        const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, written & 255])
        const file = await deps.files.store(deps.db, { data: png, fileName: 's.png', kind: 'image', maxBytes: 1024 })
        await createReportIn(t, project, { title: `Crash ${written}`, screenshotKey: file.key })
        written++
        await Bun.sleep(1)
      }
    })()
    await Bun.sleep(100)
    const archive = join(tempDataDir(), 'backup.tar.gz')
    const b = await runCli(['backup', archive], { GLITCHBOX_DATA_DIR: dataDir })
    await Bun.sleep(50)
    writing = false
    await writer
    expect(b.code).toBe(0)
    expect(b.stdout).toContain('backup written')

    const target = tempDataDir()
    const r = await runCli(['restore', archive], { GLITCHBOX_DATA_DIR: target })
    expect(r.code).toBe(0)
    const restored = buildDeps(loadConfig({ GLITCHBOX_DATA_DIR: target }), { logger: silentLogger })
    const rows = restored.db.$client.query<{ n: number; max: number; keys: string }, []>('SELECT count(*) n, max(report_number) max, group_concat(screenshot_key) keys FROM reports').get()!
    // A snapshot of some prefix of the writes: numbers without gaps, every referenced file present.
    expect(rows.n).toBeGreaterThan(0)
    expect(rows.n).toBeLessThanOrEqual(written)
    expect(rows.max).toBe(rows.n)
    for (const key of rows.keys.split(',')) expect(await restored.files.open(restored.db, key)).not.toBeNull()

    // Restore refuses a data directory that already holds a database.
    const again = await runCli(['restore', archive], { GLITCHBOX_DATA_DIR: target })
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('empty data directory')
    expect(readdirSync(target)).toContain('glitchbox.db')
  })
})
