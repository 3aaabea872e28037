import { count, sql } from 'drizzle-orm'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { execute } from '../../src/db/client'
import { files } from '../../src/files/files.table'
import type { StoreInput } from '../../src/files/storage'
import type { TestApp } from '../helpers/test-app'

/** A test app over one storage backend, and the keys of the blobs that backend holds. */
export interface StorageBed {
  t: TestApp
  blobKeys(): Promise<string[]>
  close(): Promise<void>
}

const MB = 1024 * 1024
/** Printable text of `size` bytes where every byte depends on its offset, so a misplaced range shows. */
function text(size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size)
  for (let i = 0; i < size; i++) out[i] = 0x21 + ((i * 7 + (i >> 10)) % 94)
  return out
}

/** Whether two byte arrays are equal (vitest's toEqual walks large arrays element by element, slowly). */
const same = (a: ArrayBuffer | Uint8Array, b: Uint8Array) => Buffer.compare(new Uint8Array(a), b) === 0

/** The keys of the files under `<dataDir>/files` (the local backend's blobs). */
export function localBlobKeys(dataDir: string): string[] {
  const root = join(dataDir, 'files')
  return readdirSync(root).flatMap((sub) => readdirSync(join(root, sub))).sort()
}

/**
 * What every `FileStorage` must do, whatever holds the bytes: store, open, serve ranges over HTTP,
 * remove, refuse empty and oversized files, take a 6 MB upload spilled to the temp folder and a
 * streamed Blob.
 */
export function storageContract(name: string, open: () => Promise<StorageBed>) {
  describe(`FileStorage on ${name}`, () => {
    let bed: StorageBed
    let t: TestApp
    beforeEach(async () => {
      bed = await open()
      t = bed.t
    })
    afterEach(() => bed.close())

    const store = (data: StoreInput['data'], maxBytes = 10 * MB) =>
      t.deps.files.store(t.deps.db, { data, fileName: 'player.log', declaredType: 'text/plain', kind: 'attachment', maxBytes })
    const get = (key: string, headers: Record<string, string> = {}) => t.app.handle(new Request(`http://localhost/api/files/${key}`, { headers: { 'x-forwarded-for': '10.1.2.3', ...headers } }))

    it('stores bytes under a fresh key with a row, and opens them again', async () => {
      const data = text(5000)
      const stored = await store(data)
      expect(stored).toMatchObject({ mimeType: 'text/plain', size: 5000, fileName: 'player.log' })
      expect(await bed.blobKeys()).toEqual([stored.key])
      expect(await t.deps.db.read((q) => q.select({ key: files.key, size: files.size }).from(files))).toEqual([{ key: stored.key, size: 5000 }])
      const opened = await t.deps.files.open(t.deps.db, stored.key)
      expect(opened!.meta).toMatchObject({ key: stored.key, size: 5000 })
      expect(same(await opened!.body.arrayBuffer(), data)).toBe(true)
    })

    it('serves the file over HTTP whole, by a single Range, and answers 416 past the end', async () => {
      const data = text(300_000)
      const { key } = await store(data)
      const whole = await get(key)
      expect([whole.status, whole.headers.get('content-length'), whole.headers.get('content-type')]).toEqual([200, '300000', 'text/plain; charset=utf-8'])
      expect(same(await whole.arrayBuffer(), data)).toBe(true)
      const part = await get(key, { range: 'bytes=123456-124455' })
      expect([part.status, part.headers.get('content-range'), part.headers.get('content-length')]).toEqual([206, 'bytes 123456-124455/300000', '1000'])
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(data.subarray(123456, 124456))
      const tail = await get(key, { range: 'bytes=-10' })
      expect(new Uint8Array(await tail.arrayBuffer())).toEqual(data.subarray(299_990))
      const past = await get(key, { range: 'bytes=300000-' })
      expect([past.status, past.headers.get('content-range')]).toEqual([416, 'bytes */300000'])
    })

    it('removes the bytes and the row; the key then answers 404', async () => {
      const kept = await store(text(10))
      const gone = await store(text(20))
      await t.deps.files.remove(t.deps.db, [gone.key, 'not-a-key'])
      expect(await bed.blobKeys()).toEqual([kept.key])
      expect(await t.deps.files.open(t.deps.db, gone.key)).toBeNull()
      expect((await get(gone.key)).status).toBe(404)
      expect((await get(kept.key)).status).toBe(200)
    })

    it('answers null and 404 for unknown keys, and for a row whose bytes are missing', async () => {
      expect(await t.deps.files.open(t.deps.db, 'A'.repeat(43) + '.txt')).toBeNull()
      expect((await get('A'.repeat(43) + '.txt')).status).toBe(404)
      const { key } = await store(text(10))
      await t.deps.db.write((q) => execute(q, sql`INSERT INTO files (key, mime_type, size, file_name, created_at) VALUES (${'B'.repeat(43) + '.txt'}, 'text/plain', 3, 'x.txt', 0)`))
      expect(await t.deps.files.open(t.deps.db, 'B'.repeat(43) + '.txt')).toBeNull()
      expect((await get(key)).status).toBe(200)
    })

    it('refuses an empty and a too large file with 400, storing nothing', async () => {
      await expect(store(new Uint8Array(0))).rejects.toMatchObject({ status: 400, message: 'file is empty' })
      await expect(store(text(2 * MB + 1), 2 * MB)).rejects.toMatchObject({ status: 400, message: 'file is too large (max 2 MB)' })
      expect(await bed.blobKeys()).toEqual([])
      expect((await t.deps.db.read((q) => q.select({ n: count() }).from(files)))[0]!.n).toBe(0)
    })

    it('takes a 6 MB upload spilled to the temp folder and serves its last bytes by Range', async () => {
      const data = text(6 * MB)
      const spill = t.deps.files.tempPath()
      await Bun.write(spill, data)
      const { key, size } = await store(Bun.file(spill), 8 * MB)
      expect(size).toBe(6 * MB)
      expect(await bed.blobKeys()).toEqual([key])
      const end = await get(key, { range: `bytes=${6 * MB - 100}-` })
      expect(end.status).toBe(206)
      expect(new Uint8Array(await end.arrayBuffer())).toEqual(data.subarray(6 * MB - 100))
      expect(same(await (await get(key)).arrayBuffer(), data)).toBe(true)
    })

    it('takes a Blob read as a stream (a multipart File)', async () => {
      const data = text(70_000)
      const { key } = await store(new File([data.subarray(0, 30_000), data.subarray(30_000)], 'player.log', { type: 'text/plain' }))
      expect(same(await (await get(key)).arrayBuffer(), data)).toBe(true)
    })
  })
}
