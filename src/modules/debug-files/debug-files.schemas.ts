import * as z from 'zod'
import { CHUNK_SIZE, MAX_DEBUG_FILE } from './chunk-upload'

const sha1 = z.string().regex(/^[0-9a-fA-F]{40}$/, { error: 'must be a SHA-1 in hex' })
/** Chunks of the largest file, with room for sentry-cli's rounding. */
const chunkList = z.array(sha1).max(MAX_DEBUG_FILE / CHUNK_SIZE + 1)

/** `POST …/files/difs/assemble/`: each file to assemble by its SHA-1, with its name, debug id and chunks in order. */
export const difAssembleBody = z
  .record(sha1, z.object({ name: z.string().max(1000), debug_id: z.string().max(200).nullish(), chunks: chunkList }))
  .refine((files) => Object.keys(files).length <= 1000, { error: 'at most 1000 files per assemble call' })

/** `POST …/artifactbundle/assemble/`: one bundle by its SHA-1, its chunks and the projects it is for. */
export const bundleAssembleBody = z.object({
  checksum: sha1,
  chunks: chunkList,
  projects: z.array(z.string().min(1).max(200)).min(1, { error: 'must name a project (--project)' }).max(20),
  version: z.string().max(250).nullish(),
  dist: z.string().max(64).nullish(),
})

export const sentryCliOrgParams = z.object({ org: z.string().max(200) })
export const sentryCliProjectParams = z.object({ org: z.string().max(200), project: z.string().max(200) })
export const debugFileParams = z.object({ slug: z.string(), id: z.string().max(64) })
