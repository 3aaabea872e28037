import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/config'
import { closeDb } from '../../src/db/client'
import { buildDeps } from '../../src/deps'
import { silentLogger } from '../../src/lib/logger'
import { startS3, type TestS3 } from '../helpers/s3-server'
import { onSqlite } from '../helpers/pg-engine'
import { engineEnv, removeTempDataDirs, runCli, startServer, tempDataDir } from '../helpers/server-process'
import { studioDataDir } from '../helpers/studio-data-dir'
import { PNG } from '../sdk/sdk-helpers'

let s3: TestS3
beforeAll(async () => {
  s3 = await startS3()
})
// One bucket for the whole file: each test starts with it empty.
beforeEach(async () => {
  await Promise.all((await s3.keys()).map((k) => s3.client.delete(k)))
})
afterAll(async () => {
  await s3?.close()
  removeTempDataDirs()
})

const KEY = Buffer.alloc(32, 3).toString('base64')

describe('glitchbox serve with a bucket and GLITCHBOX_SECRET_KEY', () => {
  it('says where files go, keeps an SDK screenshot in the bucket and serves it, with no file or secrets.key in the data directory', async () => {
    const { dataDir, project } = await studioDataDir()
    const s = await startServer({ dataDir, env: { ...s3.env, GLITCHBOX_SECRET_KEY: KEY, GLITCHBOX_LOG_LEVEL: 'info' } })
    try {
      const body = JSON.stringify({ title: 'Sky texture', description: 'See the screenshot', screenshot: `data:image/png;base64,${Buffer.from(PNG).toString('base64')}` })
      const res = await fetch(`${s.url}/api/bugs/submit`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': project.apiKey }, body })
      expect(res.status).toBe(201)
      const keys = await s3.keys()
      expect(keys).toHaveLength(1)
      const shot = await fetch(`${s.url}/api/files/${keys[0]}`, { headers: { range: 'bytes=0-7' } })
      expect(shot.status).toBe(206)
      expect(new Uint8Array(await shot.arrayBuffer())).toEqual(PNG.subarray(0, 8))
    } finally {
      await s.stop()
    }
    const lines = (await new Response(s.proc.stdout as ReadableStream).text()).split('\n').filter(Boolean).map((l) => JSON.parse(l))
    const listening = lines.find((l) => String(l.msg).startsWith('glitchbox listening'))
    expect(listening).toMatchObject({ files: `s3://glitchbox-test/ at ${s3.endpoint}`, secret_key: 'GLITCHBOX_SECRET_KEY' })
    expect(JSON.stringify(lines)).not.toContain(KEY)
    // (The fixture's account was written with local storage, which made the empty files/ folder.)
    expect(readdirSync(join(dataDir, 'files'))).toEqual([])
    expect(existsSync(join(dataDir, 'secrets.key'))).toBe(false)
  })

  it.skipIf(!onSqlite)('backs up the database and says that the objects and the key stay outside the archive (SQLite: on PostgreSQL backup says to use pg_dump)', async () => {
    const { dataDir } = await studioDataDir()
    const archive = join(dataDir, '..', `${dataDir.split('/').pop()}.tar.gz`)
    const r = await runCli(['backup', archive], { ...s3.env, GLITCHBOX_DATA_DIR: dataDir, GLITCHBOX_SECRET_KEY: KEY })
    rmSync(archive, { force: true })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`the files are in the bucket glitchbox-test, not in the archive`)
    expect(r.stdout).toContain('the key of stored credentials is GLITCHBOX_SECRET_KEY, not in the archive')
  })

  it('copies the files of a data directory into the bucket once, and the server then serves them from it', async () => {
    const dataDir = tempDataDir()
    // In the suite's PostgreSQL mode the files' rows go to the directory's own database, the one the CLI and the server then use.
    const local = buildDeps(loadConfig({ GLITCHBOX_DATA_DIR: dataDir, ...(await engineEnv(dataDir)) }), { logger: silentLogger })
    const store = (text: string) => local.files.store(local.db, { data: new TextEncoder().encode(text), fileName: 'player.log', declaredType: 'text/plain', kind: 'attachment', maxBytes: 1 << 20 })
    const kept = await store('level 3 loaded\n')
    const lost = await store('lost on disk\n')
    rmSync(join(dataDir, 'files', lost.key.slice(0, 2), lost.key))
    await closeDb(local.db)

    const env = { ...s3.env, GLITCHBOX_DATA_DIR: dataDir }
    const first = await runCli(['admin', 'copy-files-to-bucket'], env)
    expect([first.code, first.stdout.trim()]).toEqual([0, `copied 1 files (15 bytes) to s3://glitchbox-test/; 0 already there; 1 missing from ${dataDir}/files`])
    expect(await s3.keys()).toEqual([kept.key])
    const again = await runCli(['admin', 'copy-files-to-bucket'], env)
    expect(again.stdout).toContain('copied 0 files (0 bytes) to s3://glitchbox-test/; 1 already there')

    const s = await startServer({ dataDir, env: s3.env })
    try {
      const res = await fetch(`${s.url}/api/files/${kept.key}`)
      expect([res.status, await res.text()]).toEqual([200, 'level 3 loaded\n'])
    } finally {
      await s.stop()
    }
  })

  it('refuses to copy files without a bucket', async () => {
    const r = await runCli(['admin', 'copy-files-to-bucket'], { GLITCHBOX_DATA_DIR: tempDataDir() })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('GLITCHBOX_S3_BUCKET is not set')
  })

  it.each([
    ['a secret key of the wrong length', { GLITCHBOX_SECRET_KEY: Buffer.alloc(16).toString('base64') }, 'invalid GLITCHBOX_SECRET_KEY=(hidden): must be 32 random bytes in base64'],
    ['a bucket without credentials', { GLITCHBOX_S3_BUCKET: 'studio-files', AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' }, 'GLITCHBOX_S3_BUCKET needs GLITCHBOX_S3_ACCESS_KEY_ID'],
  ])('refuses to start with %s, naming the variable', async (_, env, message) => {
    const r = await runCli(['serve'], { GLITCHBOX_DATA_DIR: tempDataDir(), PORT: '0', ...env }, undefined, { timeoutMs: 15_000 })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(message)
  })
})
