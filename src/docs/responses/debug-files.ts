import * as z from 'zod'
import { isoDate, MessageResponse, type OperationDocs, uuid } from './common'

/** An uploaded debug file as the "Debug files" screen lists it. */
export const DebugFileResponse = z.object({
  id: uuid,
  name: z.string().describe('The module (`game.pdb`) or, for a source map bundle, its minified file'),
  kind: z.string().describe('`breakpad`, `source_bundle`, or a format stored but not used yet (`elf`, `pe`, `pdb`, `macho`, `wasm`, `portable_pdb`, `unknown`)'),
  arch: z.string().nullable(),
  debug_id: z.string().nullable(),
  code_id: z.string().nullable(),
  release: z.string().nullable(),
  dist: z.string().nullable(),
  size: z.number().int().describe('Bytes'),
  uploaded_at: isoDate,
  crashes_symbolicated: z.number().int(),
  detail: z.string().nullable().describe('Why the file is not used (or what was skipped reading it)'),
})
export type DebugFileResponse = z.output<typeof DebugFileResponse>

const ChunkOptions = z.object({
  url: z.string(),
  chunkSize: z.number().int(),
  chunksPerRequest: z.number().int(),
  maxFileSize: z.number().int(),
  maxRequestSize: z.number().int(),
  concurrency: z.number().int(),
  hashAlgorithm: z.literal('sha1'),
  compression: z.array(z.string()),
  accept: z.array(z.string()),
})
const state = z.enum(['ok', 'not_found', 'error'])
const DifAnswer = z.object({ state, missingChunks: z.array(z.string()), detail: z.string().nullable(), dif: z.record(z.string(), z.unknown()).nullable() })
const BundleAnswer = z.object({ state, missingChunks: z.array(z.string()), detail: z.string().nullable() })
const bytes = z.string().meta({ format: 'binary' })

export const debugFilesDocs: OperationDocs = {
  'GET /api/projects/{slug}/debug-files': { data: z.array(DebugFileResponse) },
  'DELETE /api/projects/{slug}/debug-files/{id}': { data: MessageResponse },
  'GET /api/0/organizations/{org}/chunk-upload': { data: ChunkOptions, content: 'plain-json', errorFormat: 'sentry', errors: [403] },
  'POST /api/0/organizations/{org}/chunk-upload': {
    data: z.string().describe('Empty'),
    content: 'text',
    errorFormat: 'sentry',
    description: 'The chunks are kept for the assemble call',
    errors: [403],
    requestBody: { 'multipart/form-data': z.object({ file: bytes.optional(), file_gzip: bytes.optional() }).loose().describe('Each part named by the SHA-1 of its bytes') },
  },
  'POST /api/0/projects/{org}/{project}/files/difs/assemble': {
    data: z.record(z.string(), DifAnswer).describe('By file SHA-1'),
    content: 'plain-json',
    errorFormat: 'sentry',
    errors: [403],
    requestBody: { 'application/json': z.record(z.string(), z.object({ name: z.string(), debug_id: z.string().optional(), chunks: z.array(z.string()) })) },
  },
  'POST /api/0/organizations/{org}/artifactbundle/assemble': {
    data: BundleAnswer,
    content: 'plain-json',
    errorFormat: 'sentry',
    errors: [403],
    requestBody: { 'application/json': z.object({ checksum: z.string(), chunks: z.array(z.string()), projects: z.array(z.string()), version: z.string().optional(), dist: z.string().optional() }) },
  },
}
