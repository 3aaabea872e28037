import { afterAll, beforeAll, expect } from 'vitest'
import { createTestApp } from '../helpers/test-app'
import { startS3, type TestS3 } from '../helpers/s3-server'
import { storageContract } from './storage-contract'

const PREFIX = 'studio/files/'
let s3: TestS3
beforeAll(async () => {
  s3 = await startS3(PREFIX)
})
afterAll(() => s3?.close())

storageContract('an S3 server (s3rver)', async () => {
  const t = createTestApp({ env: s3.env })
  // One bucket for the whole file: each test starts with it empty.
  await Promise.all((await s3.keys()).map((k) => s3.client.delete(k)))
  return {
    t,
    async blobKeys() {
      const keys = await s3.keys()
      for (const k of keys) expect(k.startsWith(PREFIX)).toBe(true)
      return keys.map((k) => k.slice(PREFIX.length))
    },
    close: async () => t.close(),
  }
})
