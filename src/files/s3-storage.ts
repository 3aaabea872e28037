import { S3Client } from 'bun'
import { AppError } from '../http/errors'
import type { Logger } from '../lib/logger'
import type { BlobStore } from './storage'

/** Parts of a multipart upload: S3's minimum, so a spilled upload never sits in memory whole. */
const PART_BYTES = 5 * 1024 * 1024

export interface S3Options {
  bucket: string
  /** An S3-compatible origin, addressed path-style; undefined: AWS. */
  endpoint: string | undefined
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** Prepended to every key: empty or ending in `/`. */
  prefix: string
  logger: Logger
}

/** Blobs as objects of an S3-compatible bucket, through Bun's built-in client. */
export function createS3Blobs(opts: S3Options): BlobStore {
  const client = new S3Client({
    bucket: opts.bucket,
    endpoint: opts.endpoint,
    region: opts.region,
    accessKeyId: opts.accessKeyId,
    secretAccessKey: opts.secretAccessKey,
    virtualHostedStyle: false,
  })
  const object = (key: string) => client.file(opts.prefix + key)
  /**
   * A bucket that cannot be reached (or refuses these credentials) is the operator's to fix: the
   * cause is logged, the client is told to try again later (503), never shown the bucket's answer.
   */
  const unavailable = (op: string, err: unknown) => {
    opts.logger.error('file storage failed', { op, bucket: opts.bucket, error: err instanceof Error ? `${(err as { code?: string }).code ?? err.name}: ${err.message}` : String(err) })
    return new AppError(503, 'file storage is unavailable; try again later')
  }
  return {
    async put(key, data, mimeType) {
      const sink = object(key).writer({ type: mimeType, partSize: PART_BYTES, queueSize: 2, retry: 3 })
      try {
        // The spill file (or upload) is read a chunk at a time and sent in parts as they fill.
        if (data instanceof Uint8Array) await sink.write(data)
        else for await (const chunk of data.stream()) await sink.write(chunk)
        await sink.end()
      } catch (err) {
        // Aborts the multipart upload, so no half object is left behind.
        await Promise.resolve(sink.end(err as Error)).catch(() => undefined)
        throw unavailable('put', err)
      }
    },
    async get(key) {
      const file = object(key)
      const found = await file.exists().catch((err: unknown) => {
        throw unavailable('get', err)
      })
      return found ? file : null
    },
    async *keysOlderThan(before) {
      let startAfter: string | undefined
      for (;;) {
        const page = await client.list({ prefix: opts.prefix, maxKeys: 1000, startAfter }).catch((err: unknown) => {
          throw unavailable('list', err)
        })
        const contents = page.contents ?? []
        yield contents.filter((o) => o.lastModified !== undefined && Date.parse(o.lastModified) < before.getTime()).map((o) => o.key.slice(opts.prefix.length))
        if (!page.isTruncated || contents.length === 0) return
        startAfter = contents.at(-1)!.key
      }
    },
    async delete(keys) {
      await Promise.all(keys.map((key) => object(key).delete())).catch((err: unknown) => {
        throw unavailable('delete', err)
      })
    },
  }
}
