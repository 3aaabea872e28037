import { createTestApp } from '../helpers/test-app'
import { localBlobKeys, storageContract } from './storage-contract'

storageContract('local disk', async () => {
  const t = createTestApp()
  return { t, blobKeys: async () => localBlobKeys(t.dir), close: async () => t.close() }
})
