import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { int64, timestamp } from '../../db/columns'
import { users } from '../auth/auth.table'
import { projects } from '../projects/projects.table'

/**
 * Debug files uploaded to a project (sentry-cli `debug-files upload`, `sourcemaps upload`): the file
 * itself in file storage, and for a Breakpad `.sym` its lookup index beside it (`index_key`).
 */
export const debugFiles = sqliteTable(
  'debug_files',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** `breakpad`, `source_bundle` (an artifact bundle of source maps), or the format stored unused: `elf`, `pdb`, `macho`, `pe`, `wasm`, `portable_pdb`, `unknown`. */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    arch: text('arch'),
    /** Lower-case; a bundle's first debug id (all of them are in `debug_ids`). */
    debugId: text('debug_id'),
    codeId: text('code_id'),
    /** Every debug id a source bundle holds, space-separated; null for native files. */
    debugIds: text('debug_ids'),
    release: text('release'),
    dist: text('dist'),
    size: int64('size').notNull(),
    /** SHA-1 of the whole file, as sentry-cli names it: an upload sent again is the same row. */
    checksum: text('checksum').notNull(),
    fileKey: text('file_key').notNull(),
    indexKey: text('index_key'),
    /** Why the file is not used for symbolication, when it is not (sentry-cli prints it). */
    detail: text('detail'),
    uploadedAt: timestamp('uploaded_at').notNull(),
    crashesSymbolicated: integer('crashes_symbolicated').notNull().default(0),
  },
  (t) => [
    uniqueIndex('debug_files_project_checksum_unique').on(t.projectId, t.checksum),
    index('debug_files_project_uploaded_idx').on(t.projectId, t.uploadedAt),
    index('debug_files_project_debug_id_idx').on(t.projectId, t.debugId),
  ],
)

/** Chunks received from sentry-cli before their assemble call, per uploader: no one assembles another person's chunks. */
export const debugFileChunks = sqliteTable(
  'debug_file_chunks',
  {
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-1 of the chunk's bytes, checked on receipt. */
    sha1: text('sha1').notNull(),
    fileKey: text('file_key').notNull(),
    size: int64('size').notNull(),
    receivedAt: timestamp('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sha1] }), index('debug_file_chunks_received_idx').on(t.receivedAt)],
)
