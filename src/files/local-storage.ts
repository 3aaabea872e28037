import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { BlobStore } from './storage'

/** The path of a Bun.file in `tmp`, or null (a multipart File's name comes from the client and never counts). */
function spillPath(data: Blob | Uint8Array, tmp: string): string | null {
  if (!(data instanceof Blob) || data instanceof File) return null
  const name = (data as { name?: unknown }).name
  return typeof name === 'string' && dirname(name) === tmp ? name : null
}

/** Blobs on local disk under `<root>/ab/<key>`; `tmp` is the temp folder on the same disk. */
export function createLocalBlobs(opts: { root: string; tmp: string }): BlobStore {
  mkdirSync(opts.root, { recursive: true })
  const pathOf = (key: string) => join(opts.root, key.slice(0, 2), key)
  return {
    async put(key, data) {
      // A file received into the temp folder is already on this disk: renaming it saves a copy.
      const received = spillPath(data, opts.tmp)
      const staging = received ?? join(opts.tmp, key)
      if (!received) await Bun.write(staging, data)
      mkdirSync(join(opts.root, key.slice(0, 2)), { recursive: true })
      renameSync(staging, pathOf(key))
    },
    async get(key) {
      const body = Bun.file(pathOf(key))
      return (await body.exists()) ? body : null
    },
    async delete(keys) {
      for (const key of keys) rmSync(pathOf(key), { force: true })
    },
    async *keysOlderThan(before) {
      // One folder at a time (256 of them, by the key's first two characters).
      for (const folder of readdirSync(opts.root, { withFileTypes: true })) {
        if (!folder.isDirectory()) continue
        // A file removed meanwhile has no stat: it is not old.
        yield readdirSync(join(opts.root, folder.name)).filter((key) => key.startsWith(folder.name) && (statSync(pathOf(key), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < before.getTime())
      }
    },
  }
}
