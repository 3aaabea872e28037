import { S3Client } from 'bun'
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
        throw err
      }
    },
    async get(key) {
      const file = object(key)
      return (await file.exists()) ? file : null
    },
    async delete(keys) {
      await Promise.all(keys.map((key) => object(key).delete()))
    },
  }
}
