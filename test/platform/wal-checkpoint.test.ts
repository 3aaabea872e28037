import { statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from 'bun:sqlite'
import { checkpointWal, checkpointWalWhileWriting, deferCheckpoints, REQUEST_THREAD_AUTOCHECKPOINT_PAGES } from '../../src/db/checkpoint'
import { openSqlite } from '../../src/db/client'
import { collectJobs } from '../../src/jobs/registry'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'
import { createTestApp } from '../helpers/test-app'
import { onSqlite } from '../helpers/pg-engine'

/** WAL frames not yet copied into the database file, as the writer sees them. */
const walFrames = (db: Database) => db.query<{ log: number }, []>('PRAGMA wal_checkpoint(NOOP)').get()?.log

describe.skipIf(!onSqlite)('WAL checkpoints off the request thread (SQLite: WAL checkpoint)', () => {
  let dir: string
  let writer: Database
  let checkpointer: Database
  beforeEach(() => {
    dir = tempDir('wal')
    writer = openSqlite(join(dir, 'db.sqlite'))
    checkpointer = openSqlite(join(dir, 'db.sqlite'))
    writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)')
  })
  afterEach(() => {
    writer.close()
    checkpointer.close()
    removeTempDir(dir)
  })

  /** Commits `n` transactions of 1 KB rows: about `n * 4` pages of WAL. */
  const write = (n: number) => {
    const insert = writer.prepare('INSERT INTO t (body) VALUES (?)')
    for (let i = 0; i < n; i++) writer.transaction(() => { for (let k = 0; k < 16; k++) insert.run('x'.repeat(1000)) })()
  }

  it('a deferring connection lets the WAL grow past the default 1,000 pages instead of checkpointing in its commits', () => {
    deferCheckpoints(writer)
    write(500)
    expect(walFrames(writer)).toBeGreaterThan(1000)
    expect(walFrames(writer)).toBeLessThan(REQUEST_THREAD_AUTOCHECKPOINT_PAGES)
  })

  it('checkpointWal from another connection copies the WAL into the database, and the next write starts the WAL over', () => {
    deferCheckpoints(writer)
    write(500)
    const pages = walFrames(writer)!
    expect(checkpointWal(checkpointer)).toBe(pages)
    const dbSize = statSync(join(dir, 'db.sqlite')).size
    expect(dbSize).toBeGreaterThan(2_000_000)
    write(1)
    // Restarted from its beginning: only the last transaction's pages are in it.
    expect(walFrames(writer)).toBeLessThan(20)
    expect(writer.query<{ n: number }, []>('SELECT count(*) AS n FROM t').get()!.n).toBe(501 * 16)
  })

  it('within one tick, checkpoints again every interval while writes go on, and stops once nothing is written', async () => {
    deferCheckpoints(writer)
    write(50)
    // Idle: one checkpoint and done.
    expect(await checkpointWalWhileWriting(checkpointer, 500, 50)).toBe(1)
    const writing = setInterval(() => write(5), 5)
    let runs: number
    try {
      runs = await checkpointWalWhileWriting(checkpointer, 500, 50)
    } finally {
      clearInterval(writing)
    }
    // Again after the first while writes went on (a loaded machine may fire fewer intervals).
    expect(runs).toBeGreaterThan(1)
    await checkpointWalWhileWriting(checkpointer, 500, 50)
    const after = writer.query<{ log: number; checkpointed: number }, []>('PRAGMA wal_checkpoint(NOOP)').get()!
    expect(after.checkpointed).toBe(after.log)
  })

  it('the job thread runs the checkpoint every second', async () => {
    const t = createTestApp()
    try {
      const schedule = collectJobs(t.deps).schedules.find((s) => s.name === 'db.checkpoint')!
      expect(schedule.pattern).toBe('* * * * * *')
      t.sqlite.exec("CREATE TABLE filler (body TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO filler SELECT hex(randomblob(500)) FROM n")
      expect(walFrames(t.sqlite)).toBeGreaterThan(0)
      await schedule.run()
      const after = t.sqlite.query<{ log: number; checkpointed: number }, []>('PRAGMA wal_checkpoint(NOOP)').get()!
      expect(after.checkpointed).toBe(after.log)
    } finally {
      t.close()
    }
  })
})
