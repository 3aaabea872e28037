import { S3Client } from 'bun'
import S3rver from 's3rver'
import { removeTempDir, tempDir } from './temp-dirs'

export const S3_BUCKET = 'glitchbox-test'

/**
 * A real S3 server (s3rver) on a free loopback port, storing in a temp folder, with one empty bucket.
 * `env`: the variables that point a test app at it; `keys()`: the object keys in the bucket.
 */
export async function startS3(prefix = '') {
  const dir = tempDir('s3')
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: S3_BUCKET, configs: [] }] })
  // s3rver logs through winston, whose logform resolves a copy of safe-stable-stringify too old for
  // it under Bun (logform ships a tsconfig.json whose baseUrl Bun follows): every logged request would
  // fail with a 500. A silent logger never formats.
  ;(server as unknown as { logger: { silent: boolean } }).logger.silent = true
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const client = new S3Client({ endpoint, bucket: S3_BUCKET, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' })
  return {
    endpoint,
    env: {
      GLITCHBOX_S3_BUCKET: S3_BUCKET,
      GLITCHBOX_S3_ENDPOINT: endpoint,
      GLITCHBOX_S3_ACCESS_KEY_ID: 'S3RVER',
      GLITCHBOX_S3_SECRET_ACCESS_KEY: 'S3RVER',
      ...(prefix && { GLITCHBOX_S3_PREFIX: prefix }),
    },
    client,
    async keys(): Promise<string[]> {
      const listed = await client.list({ maxKeys: 1000 })
      return (listed.contents ?? []).map((o) => o.key).sort()
    },
    async close() {
      await server.close()
      removeTempDir(dir)
    },
  }
}

export type TestS3 = Awaited<ReturnType<typeof startS3>>
