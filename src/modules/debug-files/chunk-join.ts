import { rmSync } from 'node:fs'
import type { AppDeps } from '../../app-deps'
import { MAX_DEBUG_FILE } from './chunk-upload'
import { createDebugFilesRepository } from './debug-files.repository'
import type { Uploader } from './upload-caller'

/** What joining an assemble call's chunks gave: chunks still to send, a reason it cannot be, or the file in the temp folder. */
export type Joined = { missing: string[] } | { error: string } | { path: string; size: number }

/**
 * Joins the uploader's chunks, in the order the assemble call lists them, into a file in the temp
 * folder, hashing as it writes: the whole must have the SHA-1 the call names it by, and stay within
 * 2 GB. Chunks are read one at a time, so memory stays at a chunk whatever the file's size.
 */
export async function joinChunks(deps: Pick<AppDeps, 'db' | 'files'>, uploader: Uploader, checksum: string, chunkSha1s: string[]): Promise<Joined> {
  const { db, files } = deps
  const wanted = chunkSha1s.map((c) => c.toLowerCase())
  const rows = new Map((await createDebugFilesRepository({ db }).chunks(uploader.user.id, wanted)).map((r) => [r.sha1, r]))
  const missing = [...new Set(wanted.filter((c) => !rows.has(c)))]
  if (missing.length || wanted.length === 0) return { missing }
  const total = wanted.reduce((sum, c) => sum + rows.get(c)!.size, 0)
  if (total > MAX_DEBUG_FILE) return { error: `the file is larger than ${MAX_DEBUG_FILE / 1024 ** 3} GB` }
  const path = files.tempPath()
  const writer = Bun.file(path).writer()
  const hash = new Bun.CryptoHasher('sha1')
  let written = false
  try {
    for (const sha1 of wanted) {
      const opened = await files.open(db, rows.get(sha1)!.fileKey)
      // A chunk whose bytes are gone (a sweep, a lost object) is sent again.
      if (!opened) return { missing: [sha1] }
      const bytes = new Uint8Array(await opened.body.arrayBuffer())
      hash.update(bytes)
      await writer.write(bytes)
    }
    written = true
  } finally {
    await writer.end()
    if (!written) rmSync(path, { force: true })
  }
  if (hash.digest('hex') !== checksum.toLowerCase()) {
    rmSync(path, { force: true })
    return { error: 'the chunks do not make up the file: its SHA-1 differs from the checksum named' }
  }
  return { path, size: total }
}

/** Forgets the chunks an assembled file used. */
export async function dropChunks(deps: Pick<AppDeps, 'db' | 'files'>, uploader: Uploader, chunkSha1s: string[]): Promise<void> {
  await deps.files.remove(deps.db, await createDebugFilesRepository({ db: deps.db }).removeChunks(uploader.user.id, chunkSha1s.map((c) => c.toLowerCase())))
}
