import { and, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { debugFileChunks, debugFiles } from './debug-files.table'

export type DebugFileRow = typeof debugFiles.$inferSelect
export type ChunkRow = typeof debugFileChunks.$inferSelect
export type SourceBundleRow = Pick<DebugFileRow, 'id' | 'fileKey' | 'debugIds' | 'release' | 'dist'>

/** Reads and writes of uploaded debug files and the chunks awaiting their assemble call, over the database seam. */
export function createDebugFilesRepository({ db }: { db: Seam }) {
  return {
    /** A project's uploads, newest first. */
    ofProject: (projectId: string): Promise<DebugFileRow[]> =>
      db.read((q) => q.select().from(debugFiles).where(eq(debugFiles.projectId, projectId)).orderBy(desc(debugFiles.uploadedAt), desc(debugFiles.id))),

    /** The project's upload of the file with this SHA-1, or undefined. */
    byChecksum: async (projectId: string, checksum: string): Promise<DebugFileRow | undefined> =>
      (await db.read((q) => q.select().from(debugFiles).where(and(eq(debugFiles.projectId, projectId), eq(debugFiles.checksum, checksum))).limit(1)))[0],

    byId: async (projectId: string, id: string): Promise<DebugFileRow | undefined> =>
      (await db.read((q) => q.select().from(debugFiles).where(and(eq(debugFiles.projectId, projectId), eq(debugFiles.id, id))).limit(1)))[0],

    /** Inserts an upload; false when the project has the same file already (a concurrent assemble won). */
    insert: async (row: DebugFileRow): Promise<boolean> =>
      (await db.write((q) => q.insert(debugFiles).values(row).onConflictDoNothing().returning({ id: debugFiles.id }))).length > 0,

    /** The project's newest indexed `.sym` with this debug id, or undefined: lookups never cross projects. */
    symbolsOf: async (projectId: string, debugId: string): Promise<Pick<DebugFileRow, 'id' | 'indexKey'> | undefined> =>
      (
        await db.read((q) =>
          q
            .select({ id: debugFiles.id, indexKey: debugFiles.indexKey })
            .from(debugFiles)
            .where(and(eq(debugFiles.projectId, projectId), eq(debugFiles.debugId, debugId), isNotNull(debugFiles.indexKey)))
            .orderBy(desc(debugFiles.uploadedAt))
            .limit(1),
        )
      )[0],

    /** The project's usable source bundles, newest first: lookups never cross projects. */
    sourceBundlesOf: (projectId: string): Promise<SourceBundleRow[]> =>
      db.read((q) =>
        q
          .select({ id: debugFiles.id, fileKey: debugFiles.fileKey, debugIds: debugFiles.debugIds, release: debugFiles.release, dist: debugFiles.dist })
          .from(debugFiles)
          .where(and(eq(debugFiles.projectId, projectId), eq(debugFiles.kind, 'source_bundle'), isNull(debugFiles.detail)))
          .orderBy(desc(debugFiles.uploadedAt), desc(debugFiles.id)),
      ),

    /** Counts one more crash symbolicated with each of these uploads. */
    countSymbolicated: (ids: string[]) =>
      ids.length ? db.write((q) => q.update(debugFiles).set({ crashesSymbolicated: sql`${debugFiles.crashesSymbolicated} + 1` }).where(inArray(debugFiles.id, ids))) : Promise.resolve(),

    remove: (projectId: string, id: string) => db.write((q) => q.delete(debugFiles).where(and(eq(debugFiles.projectId, projectId), eq(debugFiles.id, id)))),

    /** Stored file keys of a project's uploads (files and indexes), for deleting the project. */
    fileKeysOf: async (projectId: string): Promise<string[]> =>
      (await db.read((q) => q.select({ fileKey: debugFiles.fileKey, indexKey: debugFiles.indexKey }).from(debugFiles).where(eq(debugFiles.projectId, projectId)))).flatMap((r) => (r.indexKey ? [r.fileKey, r.indexKey] : [r.fileKey])),

    /** The uploader's chunks among these SHA-1s. */
    chunks: (userId: string, sha1s: string[]): Promise<ChunkRow[]> =>
      sha1s.length ? db.read((q) => q.select().from(debugFileChunks).where(and(eq(debugFileChunks.userId, userId), inArray(debugFileChunks.sha1, [...new Set(sha1s)])))) : Promise.resolve([]),

    /** Records a received chunk; false when the uploader had sent it already. */
    insertChunk: async (row: ChunkRow): Promise<boolean> =>
      (await db.write((q) => q.insert(debugFileChunks).values(row).onConflictDoNothing().returning({ sha1: debugFileChunks.sha1 }))).length > 0,

    /** Forgets chunks: those of an uploader with these SHA-1s; returns their file keys. */
    removeChunks: async (userId: string, sha1s: string[]): Promise<string[]> =>
      sha1s.length
        ? (await db.write((q) => q.delete(debugFileChunks).where(and(eq(debugFileChunks.userId, userId), inArray(debugFileChunks.sha1, [...new Set(sha1s)]))).returning({ fileKey: debugFileChunks.fileKey }))).map((r) => r.fileKey)
        : Promise.resolve([]),

    /** Forgets chunks received before `before` that no assemble call used (an upload given up); returns their file keys. */
    removeStaleChunks: async (before: Date): Promise<string[]> =>
      (await db.write((q) => q.delete(debugFileChunks).where(lt(debugFileChunks.receivedAt, before)).returning({ fileKey: debugFileChunks.fileKey }))).map((r) => r.fileKey),
  }
}
