import type { Config } from '../config/config'
import type { Seam } from '../db/client'
import type { Logger } from '../lib/logger'
import { createFilesRepository } from './files.repository'
import { bucketOf, localBlobsOf } from './storage'

/**
 * Copies the bytes of every stored file from `<dataDir>/files` into the configured bucket, for a
 * server moving its files to S3 (`glitchbox admin copy-files-to-bucket`). Objects already in the
 * bucket are left alone, so it can run again after an interruption; the local files stay.
 */
export async function copyFilesToBucket(config: Config, db: Seam, logger: Logger) {
  const bucket = bucketOf(config, logger)
  if (!bucket) throw new Error('GLITCHBOX_S3_BUCKET is not set: name the bucket to copy the files into')
  const local = localBlobsOf(config)
  const result = { copied: 0, bytes: 0, present: 0, missing: 0 }
  const rows = await createFilesRepository({ db }).all()
  for (const row of rows) {
    const body = await local.get(row.key)
    if (!body) result.missing++
    else if (await bucket.get(row.key)) result.present++
    else {
      await bucket.put(row.key, body, row.mimeType)
      result.copied++
      result.bytes += row.size
    }
  }
  return result
}
