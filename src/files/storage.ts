import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config/config'
import type { Seam } from '../db/client'
import { badRequest } from '../http/errors'
import type { Clock } from '../lib/clock'
import type { Logger } from '../lib/logger'
import { randomToken } from '../lib/ids'
import { createFilesRepository } from './files.repository'
import { createLocalBlobs } from './local-storage'
import { checkUpload, type UploadKind } from './mime'
import { createS3Blobs } from './s3-storage'

export interface StoredFile {
  key: string
  mimeType: string
  size: number
  fileName: string
}

export interface StoreInput {
  /**
   * A Blob (multipart File, Bun.file) is streamed to the store; bytes are written as they are. A
   * Bun.file at a `tempPath()` is moved in on local disk, not copied.
   */
  data: Blob | Uint8Array
  fileName: string
  declaredType?: string | null
  kind: UploadKind
  maxBytes: number
}

/** Where files live, with their rows in `files`: local disk (the default) or an S3-compatible bucket. */
export interface FileStorage {
  store(db: Seam, input: StoreInput): Promise<StoredFile>
  /**
   * The file and its metadata, or null for an unknown key, a missing object or a file withdrawn with
   * its deleted report (withdrawn-files.ts). On S3 `body` is a lazy S3File: read it with `stream()`
   * or `slice()`, never hand it to a Response as is (Bun answers that with a redirect).
   */
  open(db: Seam, key: string): Promise<{ meta: StoredFile; body: Blob } | null>
  /** Deletes blobs and their rows; unknown keys are ignored. */
  remove(db: Seam, keys: string[]): Promise<void>
  /**
   * Deletes stored blobs that no `files` row names and that were last written before `before`: a
   * process killed between writing a file and committing its row leaves one behind. Returns how many.
   */
  removeOrphans(db: Seam, before: Date): Promise<number>
  /** Public URL of a stored file. */
  url(key: string): string
  /** A fresh path in the local temp folder (wiped at start-up) for a file being received before `store`. */
  tempPath(): string
}

/** Removes stored files after the transaction that would have referenced them failed. */
export async function removeFiles(deps: { db: Seam; files: FileStorage }, stored: StoredFile[]): Promise<void> {
  if (stored.length) await deps.files.remove(deps.db, stored.map((f) => f.key))
}

/** The bytes of stored files, under their keys: a folder or a bucket. The checks and the rows are `FileStorage`'s. */
export interface BlobStore {
  /** Writes `data` as `key`; a Bun.file in the temp folder may be moved in rather than copied. */
  put(key: string, data: Blob | Uint8Array, mimeType: string): Promise<void>
  /** The bytes of `key`, or null when there are none. */
  get(key: string): Promise<Blob | null>
  delete(keys: string[]): Promise<void>
  /** Every stored key last written before `before`, a batch at a time (for the orphan sweep). */
  keysOlderThan(before: Date): AsyncIterable<string[]>
}

const KEY_RE = /^[A-Za-z0-9_-]{32,64}(\.[a-z0-9]{1,5})?$/
/** Keys looked up per query by the orphan sweep (under SQLite's bound-parameter limit). */
const ORPHAN_CHUNK = 500

const extensions: Record<string, string> = {
  'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/bmp': 'bmp',
  'video/webm': 'webm', 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'application/json': 'json', 'text/plain': 'txt',
  'application/x-minidump': 'dmp',
}

/**
 * The storage of this server: a bucket when `GLITCHBOX_S3_BUCKET` is set, else `<dataDir>/files`.
 * Uploads are received into `<dataDir>/tmp` either way.
 */
export function createStorage(config: Config, opts: { clock: Clock; logger: Logger; cleanTmp?: boolean }): FileStorage {
  const tmp = join(config.dataDir, 'tmp')
  // Half-written uploads of a crashed process are never referenced: the server starts with a clean
  // temp folder. CLI commands running beside a live server must not touch it.
  if (opts.cleanTmp) rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  const blobs = bucketOf(config, opts.logger) ?? localBlobsOf(config)
  return createFileStorage({ blobs, tmp, publicUrl: config.publicUrl, clock: opts.clock })
}

/** The bucket named by `GLITCHBOX_S3_*`, or null when files stay on local disk. */
export function bucketOf(config: Config, logger: Logger): BlobStore | null {
  if (!config.s3Bucket) return null
  return createS3Blobs({
    bucket: config.s3Bucket,
    endpoint: config.s3Endpoint,
    region: config.s3Region,
    accessKeyId: config.s3AccessKeyId!,
    secretAccessKey: config.s3SecretAccessKey!,
    prefix: config.s3Prefix ?? '',
    logger,
  })
}

/** The blobs under `<dataDir>/files`. */
export const localBlobsOf = (config: Pick<Config, 'dataDir'>): BlobStore => createLocalBlobs({ root: join(config.dataDir, 'files'), tmp: join(config.dataDir, 'tmp') })

/** Checked uploads under unguessable 256-bit keys, with a row each in `files`, their bytes in `blobs`. */
function createFileStorage(opts: { blobs: BlobStore; tmp: string; publicUrl: string; clock: Clock }): FileStorage {
  const { blobs } = opts
  return {
    async store(db, input) {
      const size = input.data instanceof Blob ? input.data.size : input.data.byteLength
      if (size === 0) throw badRequest('file is empty')
      if (size > input.maxBytes) throw badRequest(`file is too large (max ${Math.round(input.maxBytes / 1024 / 1024)} MB)`)
      const head = input.data instanceof Blob ? new Uint8Array(await input.data.slice(0, 4096).arrayBuffer()) : input.data.subarray(0, 4096)
      const mimeType = checkUpload(input.kind, head, input.declaredType)
      const ext = extensions[mimeType] ?? (mimeType.startsWith('text/') ? 'txt' : 'bin')
      const key = `${randomToken(32)}.${ext}`
      await blobs.put(key, input.data, mimeType)
      const fileName = input.fileName.replace(/[\r\n"\\/]/g, '_').slice(0, 200) || `file.${ext}`
      await createFilesRepository({ db }).insert({ key, mimeType, size, fileName, createdAt: opts.clock.now() })
      return { key, mimeType, size, fileName }
    },
    async open(db, key) {
      if (!KEY_RE.test(key)) return null
      const meta = await createFilesRepository({ db }).served(key)
      if (!meta) return null
      const body = await blobs.get(key)
      return body ? { meta, body } : null
    },
    async remove(db, keys) {
      const valid = keys.filter((k) => KEY_RE.test(k))
      if (valid.length === 0) return
      // Rows first: a crash in between leaves an unreferenced blob, never a row without its bytes.
      await createFilesRepository({ db }).remove(valid)
      await blobs.delete(valid)
    },
    async removeOrphans(db, before) {
      const repo = createFilesRepository({ db })
      let removed = 0
      for await (const batch of blobs.keysOlderThan(before)) {
        const old = batch.filter((key) => KEY_RE.test(key))
        for (let i = 0; i < old.length; i += ORPHAN_CHUNK) {
          const chunk = old.slice(i, i + ORPHAN_CHUNK)
          const known = await repo.known(chunk)
          const orphans = chunk.filter((k) => !known.has(k))
          await blobs.delete(orphans)
          removed += orphans.length
        }
      }
      return removed
    },
    url: (key) => `${opts.publicUrl}/api/files/${key}`,
    tempPath: () => join(opts.tmp, `${randomToken(16)}.part`),
  }
}
