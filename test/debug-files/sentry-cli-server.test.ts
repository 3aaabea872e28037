// The real sentry-cli (3.x, and 2.x when SENTRY_CLI_2 names one) against the real server: an API token
// made in the API, `debug-files upload` of Breakpad symbols and `sourcemaps inject` + `upload` of a
// minified build exit 0, and the files are listed on the project's "Debug files" list.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { minifiedBuild, runSentryCli as run, sentryClis } from '../helpers/sentry-cli'
import { removeTempDataDirs, startServer, studioOnServer } from '../helpers/server-process'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'
import { debugFixture } from './fixture'

const CLIS = sentryClis('sentry-cli server tests')

let server: Awaited<ReturnType<typeof startServer>>
let session = ''
let dir = ''

beforeAll(async () => {
  server = await startServer()
  session = (await studioOnServer(server.url, { email: 'symbols@example.com', password: 'correct-horse-battery', project: 'Unused' })).token
  dir = tempDir('sentry-cli')
}, 60_000)

afterAll(async () => {
  await server?.stop()
  if (dir) removeTempDir(dir)
  removeTempDataDirs()
})

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  return (await res.json()) as { ok: boolean; data: any }
}

describe.each(CLIS)('sentry-cli %s against the server', (version, cli) => {
  let slug = ''
  let env: Record<string, string> = {}
  let work = ''

  beforeAll(async () => {
    slug = (await api('POST', '/api/projects', { name: `Cave Game ${version}` })).data.slug
    const token = (await api('POST', '/api/auth/api-tokens', { name: `CI ${version}`, scopes: ['debug_files.upload'], project: slug })).data.token as string
    env = { SENTRY_URL: server.url, SENTRY_AUTH_TOKEN: token }
    work = join(dir, version)
    mkdirSync(join(work, 'symbols'), { recursive: true })
  }, 30_000)

  it('uploads Breakpad symbols with `debug-files upload`: exit 0, listed with module, architecture and debug id', async () => {
    writeFileSync(join(work, 'symbols', 'test_app.sym'), debugFixture('test_app.sym.gz'))
    writeFileSync(join(work, 'symbols', 'kernel32.sym'), debugFixture('kernel32.sym.gz'))
    const upload = await run([cli, 'debug-files', 'upload', '--org', 'studio', '--project', slug, 'symbols'], work, env)
    expect(upload.code, upload.out).toBe(0)
    const listed = (await api('GET', `/api/projects/${slug}/debug-files`)).data as Record<string, unknown>[]
    expect(listed).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'test_app.pdb', kind: 'breakpad', arch: 'x86', debug_id: '5A9832E5287241C1838ED98914E9B7FF1', size: debugFixture('test_app.sym.gz').byteLength }),
      expect.objectContaining({ name: 'kernel32.pdb', kind: 'breakpad', arch: 'x86', debug_id: 'BCE8785C57B44245A669896B6A19B9542' }),
    ]))
    expect(listed).toHaveLength(2)
    // The same upload again finds the files there: still exit 0, still two rows.
    const again = await run([cli, 'debug-files', 'upload', '--org', 'studio', '--project', slug, 'symbols'], work, env)
    expect(again.code, again.out).toBe(0)
    expect((await api('GET', `/api/projects/${slug}/debug-files`)).data).toHaveLength(2)
  }, 120_000)

  it('uploads a minified build with `sourcemaps inject` + `sourcemaps upload`: exit 0, listed under the injected debug id', async () => {
    const src = join(work, 'web')
    mkdirSync(join(src, 'src'), { recursive: true })
    writeFileSync(join(src, 'src', 'game.ts'), 'export function spawn(level: number) {\n  if (level > 5) throw new Error("too strong")\n  return level\n}\nspawn(9)\n')
    const js = await minifiedBuild(join(src, 'src', 'game.ts'), join(src, 'dist'))
    const inject = await run([cli, 'sourcemaps', 'inject', 'dist'], src, env)
    expect(inject.code, inject.out).toBe(0)
    const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(readFileSync(js, 'utf8'))![1]!
    const upload = await run([cli, 'sourcemaps', 'upload', '--org', 'studio', '--project', slug, '--release', '1.0.0', '--dist', 'web', 'dist'], src, env)
    expect(upload.code, upload.out).toBe(0)
    const listed = (await api('GET', `/api/projects/${slug}/debug-files`)).data as Record<string, unknown>[]
    expect(listed).toContainEqual(expect.objectContaining({ kind: 'source_bundle', name: '~/game.js', debug_id: debugId, release: '1.0.0', dist: 'web', detail: null }))
  }, 120_000)

  it('fails the command, storing nothing, for a project the token is not for', async () => {
    const other = (await api('POST', '/api/projects', { name: `Other ${version}` })).data.slug as string
    const upload = await run([cli, 'debug-files', 'upload', '--org', 'studio', '--project', other, 'symbols'], work, env)
    expect(upload.code).not.toBe(0)
    expect(upload.out).toContain('limited to another project')
    expect((await api('GET', `/api/projects/${other}/debug-files`)).data).toEqual([])
  }, 120_000)
})
