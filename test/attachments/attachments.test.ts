import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { files } from '../../src/files/files.table'
import { accounts } from '../../src/modules/auth/accounts.table'
import { addAttachment } from '../../src/modules/attachments/attachments.service'
import { attachments } from '../../src/modules/attachments/attachments.table'
import { PLANS } from '../../src/modules/auth/plans'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from '../projects/team-helpers'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])
const ELF = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0])

let t: TestApp
let owner: TestUser
let project: TestProject
let report: Awaited<ReturnType<typeof createReportIn>>
let url: string
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
  report = await createReportIn(t, project)
  url = `/api/projects/${project.slug}/bugs/${report.reportNumber}/attachments`
})
afterEach(() => t.close())

function form(parts: BlobPart[] | null, name = 'log.txt', type = 'text/plain', field = 'file') {
  const f = new FormData()
  if (parts) f.append(field, new File(parts, name, { type }))
  return f
}
const upload = (body: FormData, token = owner.token) => t.request('POST', url, { token, body })
const usedBytes = async () => (await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id))))[0]!.uploadBytesUsed
const storedFiles = async () => await t.deps.db.read((q) => q.select().from(files))

describe('POST /api/projects/:slug/bugs/:number/attachments', () => {
  it('stores a text file, lists it, charges the quota and serves it at file_url', async () => {
    const res = await upload(form(['player.log: boot ok\n'], 'player.log'))
    expect(res.status).toBe(201)
    const a = res.body.data
    expect(a).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      file_url: expect.stringMatching(/^http:\/\/glitchbox\.test\/api\/files\/[A-Za-z0-9_-]{43}\.txt$/),
      file_name: 'player.log',
      file_size: 20,
      mime_type: 'text/plain',
      created_at: t.clock.now().toISOString(),
    })
    expect(await usedBytes()).toBe(20)
    const list = await t.request('GET', url, { token: owner.token })
    expect(list.status).toBe(200)
    expect(list.body.data).toEqual([a])
    const file = await t.request('GET', new URL(a.file_url).pathname)
    expect(file.status).toBe(200)
    expect(file.body).toBe('player.log: boot ok\n')
    expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const feed = (await t.request('GET', `/api/projects/${project.slug}/activity?action=attached`, { token: owner.token })).body.data
    expect(feed[0]).toMatchObject({ actor_id: owner.user.id, new_value: 'player.log' })
  })

  it.each([
    ['PNG declared as image/png', [PNG], 'shot.png', 'image/png', 'image/png'],
    ['PNG with no declared type', [PNG], 'shot.bin', '', 'image/png'],
    ['JSON', ['{"fps": 30}'], 'data.json', 'application/json', 'application/json'],
    ['JSON declared as text', ['[1,2]'], 'data.txt', 'text/plain', 'text/plain'],
    ['WebM video', [new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0, 0, 0, 0, 0, 1])], 'clip.webm', 'video/webm', 'video/webm'],
  ])('accepts %s', async (_name, parts, fileName, type, mime) => {
    const res = await upload(form(parts as BlobPart[], fileName, type))
    expect(res.status).toBe(201)
    expect(res.body.data.mime_type).toBe(mime)
  })

  it.each([
    ['an executable', [ELF], 'game.exe', 'application/octet-stream', 'file type not allowed'],
    ['text declared as an image', ['hello'], 'x.png', 'image/png', 'does not match'],
    ['a PNG declared as text', [PNG], 'x.txt', 'text/plain', 'does not match'],
    ['a PDF', ['%PDF-1.7\n', new Uint8Array([0xe2, 0xe3, 0xcf, 0xd3, 0, 1, 2])], 'x.pdf', 'application/pdf', 'file type not allowed'],
    ['SVG', ['<svg xmlns="http://www.w3.org/2000/svg"></svg>'], 'x.svg', 'image/svg+xml', 'does not match'],
    ['an empty file', [''], 'empty.txt', 'text/plain', 'empty'],
  ])('refuses %s with 400 and stores nothing', async (_name, parts, fileName, type, message) => {
    const res = await upload(form(parts as BlobPart[], fileName, type))
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(message)
    expect(await storedFiles()).toHaveLength(0)
    expect(await usedBytes()).toBe(0)
  })

  it('answers 400 when the file is missing', async () => {
    for (const body of [form(null), form(['x'], 'a.txt', 'text/plain', 'other')]) {
      const res = await upload(body)
      expect(res.status).toBe(400)
      expect(res.body.error).toContain('file is required')
    }
    const json = await t.request('POST', url, { token: owner.token, body: { file: 'aGVsbG8=' } })
    expect(json.status).toBe(400)
  })

  it('answers 400 over 10 MB', async () => {
    const res = await upload(form([new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61)], 'big.txt'))
    expect(res.status).toBe(400)
    expect(res.body.error).toContain('too large')
    expect(await storedFiles()).toHaveLength(0)
    const ok = await upload(form([new Uint8Array(10 * 1024 * 1024).fill(0x61)], 'max.txt'))
    expect(ok.status).toBe(201)
  })

  it('allows 10 attachments per report and answers 400 for the 11th', async () => {
    for (let i = 0; i < 10; i++) expect((await upload(form([`line ${i}`]))).status).toBe(201)
    const res = await upload(form(['one more']))
    expect(res.status).toBe(400)
    expect(res.body.error).toContain('at most 10')
    expect((await t.request('GET', url, { token: owner.token })).body.data).toHaveLength(10)
    expect(await storedFiles()).toHaveLength(10)
  })

  it('answers 403 when the upload quota would be passed, before storing anything', async () => {
    const limit = PLANS.free.limits.uploadBytes
    await t.deps.db.write((q) => q.update(accounts).set({ uploadBytesUsed: limit - 5 }).where(eq(accounts.id, owner.account.id)))
    const res = await upload(form(['0123456789']))
    expect(res.status).toBe(403)
    expect(res.body.error).toContain("this account's upload quota is reached")
    expect(await storedFiles()).toHaveLength(0)
    expect(await usedBytes()).toBe(limit - 5)
    expect((await upload(form(['12345']))).status).toBe(201)
    expect(await usedBytes()).toBe(limit)
  })

  it('removes the stored file when the report fills up while it was being stored', async () => {
    for (let i = 0; i < 9; i++) await upload(form([`line ${i}`]))
    const input = (n: number) => ({ project, account: owner.account, report, data: new Blob([`racer ${n}`]), fileName: `r${n}.txt`, declaredType: 'text/plain' })
    const results = await Promise.allSettled([addAttachment(t.deps, input(1)), addAttachment(t.deps, input(2))])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(await t.deps.db.read((q) => q.select().from(attachments))).toHaveLength(10)
    expect(await storedFiles()).toHaveLength(10)
  })

  it('answers 404 for deleted and unknown reports', async () => {
    await t.deps.db.write((q) => q.update(reports).set({ deletedAt: t.clock.now() }).where(eq(reports.id, report.id)))
    for (const path of [url, `/api/projects/${project.slug}/bugs/77/attachments`]) {
      const res = await t.request('POST', path, { token: owner.token, body: form(['x']) })
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('bug not found')
      expect((await t.request('GET', path, { token: owner.token })).status).toBe(404)
    }
    expect(await storedFiles()).toHaveLength(0)
  })

  it('needs bugs.edit to upload, bugs.view to list (403), membership for both (404)', async () => {
    const noEdit = await addTeammate(t, owner, { overrides: { 'bugs.edit': false } })
    const noView = await addTeammate(t, owner, { overrides: { 'bugs.view': false } })
    const stranger = await createUser(t)
    expect((await upload(form(['x']), noEdit.token)).status).toBe(403)
    expect((await upload(form(['x']), stranger.token)).status).toBe(404)
    expect((await t.request('GET', url, { token: noView.token })).status).toBe(403)
    expect((await t.request('GET', url, { token: noEdit.token })).status).toBe(200)
    expect((await t.request('GET', url, { token: stranger.token })).status).toBe(404)
    expect(await storedFiles()).toHaveLength(0)
  })
})

describe('multipart parsing', () => {
  it('answers 400 to a malformed multipart body', async () => {
    const res = await t.request('POST', url, { token: owner.token, body: 'not multipart at all', headers: { 'content-type': 'multipart/form-data; boundary=zzz' } })
    expect(res.status).toBe(400)
  })
})
