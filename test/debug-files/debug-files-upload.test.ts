// API tokens and sentry-cli's upload protocol on the app, request by request: tokens are hashed,
// shown once, scoped and revocable; chunks are checked by SHA-1 and kept per uploader; assemble
// answers missing chunks first, then stores the file with its row (a `.sym` indexed); hostile input
// gets a `detail` and changes nothing.
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/lib/ids'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { sqlRows } from '../helpers/sql-rows'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { debugFixture } from './fixture'

let t: TestApp
let owner: TestUser
let game: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  game = await createProject(t, owner, { name: 'Cave Game' })
})
afterEach(() => t.close())

const sha1 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha1').update(bytes).digest('hex')
const newToken = async (o: { project?: string | null; token?: string } = {}) => {
  const res = await t.request('POST', '/api/auth/api-tokens', { token: o.token ?? owner.token, body: { name: 'CI', scopes: ['debug_files.upload'], project: o.project ?? null } })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.data as { id: string; token: string; hint: string }
}
/** Sends chunks as sentry-cli does: multipart parts named by their SHA-1, gzipped or not. */
const sendChunks = (token: string, chunks: Uint8Array[], o: { gzip?: boolean; names?: string[] } = {}) => {
  const form = new FormData()
  chunks.forEach((c, i) => form.append(o.gzip ? 'file_gzip' : 'file', new Blob([(o.gzip ? gzipSync(c) : c) as Uint8Array<ArrayBuffer>]), o.names?.[i] ?? sha1(c)))
  return t.request('POST', '/api/0/organizations/studio/chunk-upload/', { token, body: form })
}
const assembleDif = (token: string, file: Uint8Array, chunks: Uint8Array[], name = 'test_app.sym', slug = game.slug) =>
  t.request('POST', `/api/0/projects/studio/${slug}/files/difs/assemble/`, { token, body: { [sha1(file)]: { name, chunks: chunks.map(sha1) } } })
const listed = async (slug = game.slug, token = owner.token) => (await t.request('GET', `/api/projects/${slug}/debug-files`, { token })).body.data as Record<string, unknown>[]

describe('API tokens', () => {
  it('are shown once, stored as their SHA-256, listed by name and hint, and revoked', async () => {
    const created = await newToken({ project: game.slug })
    expect(created.token).toMatch(/^glb_[A-Za-z0-9_-]{40,}$/)
    const rows = await sqlRows(t, 'SELECT token_hash, scopes FROM api_tokens')
    expect(rows).toEqual([{ token_hash: sha256Hex(created.token), scopes: 'debug_files.upload' }])
    const list = await t.request('GET', '/api/auth/api-tokens', { token: owner.token })
    expect(list.body.data).toEqual([expect.objectContaining({ id: created.id, name: 'CI', scopes: ['debug_files.upload'], project: game.slug, hint: created.token.slice(0, 8) + '…', last_used_at: null })])
    expect(JSON.stringify(list.body)).not.toContain(created.token)

    expect((await t.request('GET', '/api/0/organizations/studio/chunk-upload/', { token: created.token })).status).toBe(200)
    expect((await t.request('GET', '/api/auth/api-tokens', { token: owner.token })).body.data[0].last_used_at).not.toBeNull()
    expect(await t.request('DELETE', `/api/auth/api-tokens/${created.id}`, { token: owner.token })).toMatchObject({ status: 200 })
    const after = await t.request('GET', '/api/0/organizations/studio/chunk-upload/', { token: created.token })
    expect(after).toMatchObject({ status: 401, body: { detail: 'invalid API token' } })
    expect((await t.request('DELETE', `/api/auth/api-tokens/${created.id}`, { token: owner.token })).status).toBe(404)
  })

  it('never act as a session, and are only made for projects their creator sees', async () => {
    const { token } = await newToken()
    expect((await t.request('GET', '/api/auth/me', { token })).status).toBe(401)
    const stranger = await createUser(t)
    const refused = await t.request('POST', '/api/auth/api-tokens', { token: stranger.token, body: { name: 'CI', scopes: ['debug_files.upload'], project: game.slug } })
    expect(refused).toMatchObject({ status: 404, body: { ok: false, error: 'project not found' } })
    const badScope = await t.request('POST', '/api/auth/api-tokens', { token: owner.token, body: { name: 'CI', scopes: ['admin'] } })
    expect(badScope.status).toBe(400)
    expect(await sqlRows(t, 'SELECT id FROM api_tokens WHERE user_id = ?', stranger.user.id)).toEqual([])
  })

  it('limited to one project cannot upload to another (403), and a stranger’s token finds no project (404)', async () => {
    const other = await createProject(t, owner, { name: 'Other Game' })
    const { token } = await newToken({ project: game.slug })
    const sym = debugFixture('linux_inline.new.sym')
    await sendChunks(token, [sym])
    expect(await assembleDif(token, sym, [sym], 'linux_inline.sym', other.slug)).toMatchObject({ status: 403, body: { detail: expect.stringContaining('limited to another project') } })
    const stranger = await createUser(t)
    const theirs = (await newToken({ token: stranger.token })).token
    expect((await assembleDif(theirs, sym, [sym], 'linux_inline.sym')).status).toBe(404)
    expect(await listed(other.slug)).toEqual([])
    expect(await listed()).toEqual([])
  })
})

describe('chunk upload and assemble', () => {
  it('answers the options in Sentry’s shape, with an absolute URL for the chunks', async () => {
    const { token } = await newToken()
    const res = await t.request('GET', '/api/0/organizations/studio/chunk-upload/', { token })
    expect(res.body).toEqual({
      url: 'http://glitchbox.test/api/0/organizations/studio/chunk-upload/', chunkSize: 8 * 1024 * 1024, chunksPerRequest: 4, maxFileSize: 2 * 1024 ** 3,
      maxRequestSize: 32 * 1024 * 1024, concurrency: 2, hashAlgorithm: 'sha1', compression: ['gzip'], accept: expect.arrayContaining(['debug_files', 'artifact_bundles']),
    })
    expect(await t.request('GET', '/api/0/organizations/studio/chunk-upload/')).toMatchObject({ status: 401, body: { detail: expect.any(String) } })
  })

  it('answers missing chunks first, then assembles a .sym from gzipped chunks into a listed, indexed file', async () => {
    const { token } = await newToken({ project: game.slug })
    const sym = debugFixture('test_app.sym.gz')
    const chunks = [sym.subarray(0, 100_000), sym.subarray(100_000)]
    const first = await assembleDif(token, sym, chunks)
    expect(first.body[sha1(sym)]).toEqual({ state: 'not_found', missingChunks: chunks.map(sha1), detail: null, dif: null })
    expect((await sendChunks(token, chunks, { gzip: true })).status).toBe(200)
    const done = await assembleDif(token, sym, chunks)
    expect(done.body[sha1(sym)]).toMatchObject({ state: 'ok', missingChunks: [], dif: { objectName: 'test_app.pdb', cpuName: 'x86', sha1: sha1(sym) } })
    expect(await listed()).toEqual([expect.objectContaining({ name: 'test_app.pdb', kind: 'breakpad', arch: 'x86', debug_id: '5A9832E5287241C1838ED98914E9B7FF1', size: sym.byteLength, crashes_symbolicated: 0, detail: null })])
    const [row] = await sqlRows(t, 'SELECT file_key, index_key FROM debug_files')
    expect(row!.index_key).toBeTruthy()
    // Chunks are dropped once used; the same file sent again is the same row.
    expect(await sqlRows(t, 'SELECT sha1 FROM debug_file_chunks')).toEqual([])
    expect((await assembleDif(token, sym, chunks)).body[sha1(sym)].state).toBe('ok')
    expect(await listed()).toHaveLength(1)
  })

  it('refuses a chunk whose SHA-1 does not match its name, storing nothing', async () => {
    const { token } = await newToken()
    const res = await sendChunks(token, [new TextEncoder().encode('MODULE Linux x86_64 0 game\n')], { names: ['0'.repeat(40)] })
    expect(res).toMatchObject({ status: 400, body: { detail: `chunk ${'0'.repeat(40)} does not match its SHA-1` } })
    expect(await sqlRows(t, 'SELECT sha1 FROM debug_file_chunks')).toEqual([])
    expect(await sqlRows(t, 'SELECT key FROM files')).toEqual([])
  })

  it('gives an error with a detail for a file past 2 GB, before joining any chunk', async () => {
    const { token } = await newToken()
    const chunk = new Uint8Array(8 * 1024 * 1024).fill(7)
    expect((await sendChunks(token, [chunk])).status).toBe(200)
    // 257 times the same 8 MB chunk: 2.02 GiB, one past what the options allow.
    const res = await t.request('POST', `/api/0/projects/studio/${game.slug}/files/difs/assemble/`, { token, body: { ['2'.repeat(40)]: { name: 'huge.sym', chunks: Array.from({ length: 257 }, () => sha1(chunk)) } } })
    expect(res.status).toBe(200)
    expect(res.body['2'.repeat(40)]).toMatchObject({ state: 'error', detail: 'the file is larger than 2 GB' })
    expect(await listed()).toEqual([])
  })

  it('gives an error with a detail for chunks that do not make up the checksum, and for a lying .sym', async () => {
    const { token } = await newToken()
    const a = new TextEncoder().encode('MODULE windo')
    const b = new TextEncoder().encode('ws\nFUNC zz\n')
    await sendChunks(token, [a, b])
    const wrong = await t.request('POST', `/api/0/projects/studio/${game.slug}/files/difs/assemble/`, { token, body: { ['1'.repeat(40)]: { name: 'x.sym', chunks: [sha1(a), sha1(b)] } } })
    expect(wrong.body['1'.repeat(40)]).toMatchObject({ state: 'error', detail: expect.stringContaining('SHA-1 differs') })
    const whole = new Uint8Array([...a, ...b])
    const lying = await assembleDif(token, whole, [a, b], 'x.sym')
    expect(lying.body[sha1(whole)]).toMatchObject({ state: 'error', detail: expect.stringContaining('not a Breakpad .sym file') })
    expect(await listed()).toEqual([])
  })

  it('stores formats not used yet with a detail, never failing the build', async () => {
    const { token } = await newToken()
    const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(56).fill(0)])
    await sendChunks(token, [elf])
    const res = await assembleDif(token, elf, [elf], 'libgame.so.debug')
    expect(res.body[sha1(elf)]).toMatchObject({ state: 'ok', detail: 'stored, not used for symbolication yet' })
    expect(await listed()).toEqual([expect.objectContaining({ name: 'libgame.so.debug', kind: 'elf', detail: 'stored, not used for symbolication yet' })])
  })

  it('does not assemble another person’s chunks: they are missing for anyone else', async () => {
    const sym = debugFixture('linux_inline.new.sym')
    await sendChunks((await newToken()).token, [sym])
    const stranger = await createUser(t)
    const theirs = await createProject(t, stranger, { name: 'Their Game' })
    const theirToken = (await newToken({ token: stranger.token })).token
    const res = await assembleDif(theirToken, sym, [sym], 'linux_inline.sym', theirs.slug)
    expect(res.body[sha1(sym)]).toEqual({ state: 'not_found', missingChunks: [sha1(sym)], detail: null, dif: null })
    expect(await listed(theirs.slug, stranger.token)).toEqual([])
  })

  it('deletes an upload with its stored files (project.settings), from the list', async () => {
    const { token } = await newToken()
    const sym = debugFixture('linux_inline.new.sym')
    await sendChunks(token, [sym])
    await assembleDif(token, sym, [sym], 'linux_inline.sym')
    const [file] = await listed()
    const keys = await sqlRows(t, 'SELECT file_key, index_key FROM debug_files')
    expect(await t.request('DELETE', `/api/projects/${game.slug}/debug-files/${file!.id}`, { token: owner.token })).toMatchObject({ status: 200 })
    expect(await listed()).toEqual([])
    expect(await sqlRows(t, 'SELECT key FROM files WHERE key IN (?, ?)', keys[0]!.file_key, keys[0]!.index_key)).toEqual([])
  })

  it('go with their project: deleting it removes the rows and the stored files', async () => {
    const { token } = await newToken()
    const sym = debugFixture('linux_inline.new.sym')
    await sendChunks(token, [sym])
    await assembleDif(token, sym, [sym], 'linux_inline.sym')
    const [keys] = await sqlRows(t, 'SELECT file_key, index_key FROM debug_files')
    expect((await t.request('DELETE', `/api/projects/${game.slug}`, { token: owner.token, body: { confirmation: game.slug } })).status).toBe(200)
    expect(await sqlRows(t, 'SELECT id FROM debug_files')).toEqual([])
    expect(await sqlRows(t, 'SELECT key FROM files WHERE key IN (?, ?)', keys!.file_key, keys!.index_key)).toEqual([])
  })
})
