import { zlib } from '../../lib/zlib'
import type { AppDeps } from '../../app-deps'
import { badRequest } from '../../http/errors'
import { HOUR } from '../../lib/clock'
import { createDebugFilesRepository } from './debug-files.repository'
import type { Uploader } from './upload-caller'

const MB = 1024 * 1024
/** One chunk: sentry-cli cuts files into pieces of this size (its hash is the chunk's name). */
export const CHUNK_SIZE = 8 * MB
export const CHUNKS_PER_REQUEST = 4
/** What one chunk-upload request may carry: sentry-cli keeps under it; the body limit sits a little above (http/body-limit.ts). */
export const MAX_CHUNK_REQUEST = CHUNKS_PER_REQUEST * CHUNK_SIZE
/** The largest debug file assembled (CONTRACT.md: 2 GB a file). */
export const MAX_DEBUG_FILE = 2 * 1024 * MB
/** Chunks no assemble call used within this time are dropped (an upload given up halfway). */
const CHUNK_TTL = 24 * HOUR

export const sha1Hex = (bytes: Uint8Array) => new Bun.CryptoHasher('sha1').update(bytes).digest('hex')
const SHA1 = /^[0-9a-f]{40}$/

/** The chunk-upload options sentry-cli asks for first (Sentry's shape), with the absolute URL to send chunks to. */
export function chunkUploadOptions(url: string) {
  return {
    url,
    chunkSize: CHUNK_SIZE,
    chunksPerRequest: CHUNKS_PER_REQUEST,
    maxFileSize: MAX_DEBUG_FILE,
    maxRequestSize: MAX_CHUNK_REQUEST,
    concurrency: 2,
    hashAlgorithm: 'sha1',
    compression: ['gzip'],
    accept: ['debug_files', 'release_files', 'pdbs', 'sources', 'bcsymbolmaps', 'il2cpp', 'portablepdbs', 'artifact_bundles', 'artifact_bundles_v2'],
  }
}

/** The bytes of one multipart chunk field: `file` as sent, `file_gzip` inflated (never past a chunk's size). */
function chunkBytes(field: string, raw: Uint8Array): Uint8Array {
  if (field !== 'file_gzip') return raw
  try {
    return new Uint8Array(zlib().gunzipSync(raw, { maxOutputLength: CHUNK_SIZE }))
  } catch {
    throw badRequest(`a gzip chunk does not inflate to at most ${CHUNK_SIZE / MB} MB`)
  }
}

/**
 * Stores the chunks of one chunk-upload request for the uploader: each field named by the SHA-1 of
 * its bytes, checked before anything is kept (400 and nothing stored when one does not match). A
 * chunk the uploader sent before is not stored twice.
 */
export async function receiveChunks(deps: Pick<AppDeps, 'db' | 'files' | 'clock'>, uploader: Uploader, form: FormData): Promise<{ received: number }> {
  const chunks: { sha1: string; bytes: Uint8Array }[] = []
  for (const [field, entry] of form.entries()) {
    const value = entry as unknown
    if ((field !== 'file' && field !== 'file_gzip') || !(value instanceof Blob)) continue
    const name = (value instanceof File ? value.name : '').toLowerCase()
    if (!SHA1.test(name)) throw badRequest('each chunk must be named by the SHA-1 of its bytes')
    const bytes = chunkBytes(field, new Uint8Array(await value.arrayBuffer()))
    if (bytes.byteLength > CHUNK_SIZE) throw badRequest(`a chunk is larger than ${CHUNK_SIZE / MB} MB`)
    if (sha1Hex(bytes) !== name) throw badRequest(`chunk ${name} does not match its SHA-1`)
    chunks.push({ sha1: name, bytes })
  }
  const { db, files, clock } = deps
  const repo = createDebugFilesRepository({ db })
  const known = new Set((await repo.chunks(uploader.user.id, chunks.map((c) => c.sha1))).map((c) => c.sha1))
  for (const chunk of chunks) {
    if (known.has(chunk.sha1) || chunk.bytes.byteLength === 0) continue
    known.add(chunk.sha1)
    const stored = await files.store(db, { data: chunk.bytes, fileName: `${chunk.sha1}.chunk`, kind: 'debug-file', maxBytes: CHUNK_SIZE })
    // A concurrent request with the same chunk won: its copy is the one kept.
    if (!(await repo.insertChunk({ userId: uploader.user.id, sha1: chunk.sha1, fileKey: stored.key, size: stored.size, receivedAt: clock.now() }))) await files.remove(db, [stored.key])
  }
  await files.remove(db, await repo.removeStaleChunks(new Date(clock.now().getTime() - CHUNK_TTL)))
  return { received: chunks.length }
}
