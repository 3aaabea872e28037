import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/client'
import { badRequest } from '../http/errors'
import type { Clock } from '../lib/clock'
import { randomToken } from '../lib/ids'
import { files } from './files.table'
import { checkUpload, type UploadKind } from './mime'

export interface StoredFile {
  key: string
  mimeType: string
  size: number
  fileName: string
}

export interface StoreInput {
  /**
   * A Blob (multipart File, Bun.file) is streamed to disk; bytes are written as they are. A Bun.file
   * at a `tempPath()` is moved in, not copied.
   */
  data: Blob | Uint8Array
  fileName: string
  declaredType?: string | null
  kind: UploadKind
  maxBytes: number
}

/** Where blobs live. Local disk today; an S3-compatible store would implement the same interface. */
export interface FileStorage {
  store(db: DbOrTx, input: StoreInput): Promise<StoredFile>
  /** The file and its metadata, or null for an unknown key or a file withdrawn with its deleted report (withdrawn-files.ts). */
  open(db: DbOrTx, key: string): Promise<{ meta: StoredFile; body: Blob } | null>
  /** Deletes blobs and their rows; unknown keys are ignored. */
  remove(db: DbOrTx, keys: string[]): Promise<void>
  /**
   * Deletes stored blobs that no `files` row names and that were last written before `before`: a
   * process killed between writing a file and committing its row leaves one behind. Returns how many.
   */
  removeOrphans(db: DbOrTx, before: Date): Promise<number>
  /** Public URL of a stored file. */
  url(key: string): string
  /** A fresh path in the temp folder (wiped at start-up) for a file being received before `store`. */
  tempPath(): string
}

const KEY_RE = /^[A-Za-z0-9_-]{32,64}(\.[a-z0-9]{1,5})?$/
/** Keys looked up per query by the orphan sweep (under SQLite's bound-parameter limit). */
const ORPHAN_CHUNK = 500

const extensions: Record<string, string> = {
  'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/bmp': 'bmp',
  'video/webm': 'webm', 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'application/json': 'json', 'text/plain': 'txt',
  'application/x-minidump': 'dmp',
}

/** The path of a Bun.file in `tmp`, or null. */
function receivedPath(data: Blob | Uint8Array, tmp: string): string | null {
  if (!(data instanceof Blob) || data instanceof File) return null
  const name = (data as { name?: unknown }).name
  return typeof name === 'string' && dirname(name) === tmp ? name : null
}

/** Local-disk storage under `<dataDir>/files/ab/<key>` with unguessable 256-bit keys. */
export function createLocalStorage(opts: { dataDir: string; publicUrl: string; clock: Clock; cleanTmp?: boolean }): FileStorage {
  const root = join(opts.dataDir, 'files')
  const tmp = join(opts.dataDir, 'tmp')
  mkdirSync(root, { recursive: true })
  // Half-written uploads of a crashed process are never referenced: the server starts with a clean
  // temp folder. CLI commands running beside a live server must not touch it.
  if (opts.cleanTmp) rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  const pathOf = (key: string) => join(root, key.slice(0, 2), key)

  return {
    async store(db, input) {
      const size = input.data instanceof Blob ? input.data.size : input.data.byteLength
      if (size === 0) throw badRequest('file is empty')
      if (size > input.maxBytes) throw badRequest(`file is too large (max ${Math.round(input.maxBytes / 1024 / 1024)} MB)`)
      const head = input.data instanceof Blob ? new Uint8Array(await input.data.slice(0, 4096).arrayBuffer()) : input.data.subarray(0, 4096)
      const mimeType = checkUpload(input.kind, head, input.declaredType)
      const ext = extensions[mimeType] ?? (mimeType.startsWith('text/') ? 'txt' : 'bin')
      const key = `${randomToken(32)}.${ext}`
      // A file received into the temp folder is already on this disk: renaming it saves a copy. Only
      // a Bun.file qualifies; a multipart File's name comes from the client.
      const received = receivedPath(input.data, tmp)
      const staging = received ?? join(tmp, key)
      if (!received) await Bun.write(staging, input.data)
      mkdirSync(join(root, key.slice(0, 2)), { recursive: true })
      renameSync(staging, pathOf(key))
      const fileName = input.fileName.replace(/[\r\n"\\/]/g, '_').slice(0, 200) || `file.${ext}`
      db.insert(files).values({ key, mimeType, size, fileName, createdAt: opts.clock.now() }).run()
      return { key, mimeType, size, fileName }
    },
    async open(db, key) {
      if (!KEY_RE.test(key)) return null
      const meta = db
        .select()
        .from(files)
        .where(and(eq(files.key, key), sql`not exists (select 1 from withdrawn_files w where w.key = ${files.key})`))
        .get()
      if (!meta) return null
      const body = Bun.file(pathOf(key))
      if (!(await body.exists())) return null
      return { meta, body }
    },
    async remove(db, keys) {
      const valid = keys.filter((k) => KEY_RE.test(k))
      if (valid.length === 0) return
      db.delete(files).where(inArray(files.key, valid)).run()
      for (const key of valid) rmSync(pathOf(key), { force: true })
    },
    async removeOrphans(db, before) {
      let removed = 0
      // One folder at a time (256 of them, by the key's first two characters), its keys looked up in chunks.
      for (const folder of readdirSync(root, { withFileTypes: true })) {
        if (!folder.isDirectory()) continue
        // A file removed meanwhile has no stat: it is not old.
        const old = readdirSync(join(root, folder.name)).filter((key) => KEY_RE.test(key) && key.startsWith(folder.name) && (statSync(pathOf(key), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < before.getTime())
        for (let i = 0; i < old.length; i += ORPHAN_CHUNK) {
          const chunk = old.slice(i, i + ORPHAN_CHUNK)
          const known = new Set(db.select({ key: files.key }).from(files).where(inArray(files.key, chunk)).all().map((r) => r.key))
          for (const key of chunk.filter((k) => !known.has(k))) {
            rmSync(pathOf(key), { force: true })
            removed++
          }
        }
      }
      return removed
    },
    url: (key) => `${opts.publicUrl}/api/files/${key}`,
    tempPath: () => join(tmp, `${randomToken(16)}.part`),
  }
}
