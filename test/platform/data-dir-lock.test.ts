// One server per data directory (src/db/data-dir-lock.ts); the real processes are in test/e2e/operations.test.ts.
import { hostname } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import { DataDirError } from '../../src/db/data-dir'
import { lockDataDir } from '../../src/db/data-dir-lock'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach(removeTempDir))
const dataDir = () => {
  const d = tempDir('lock')
  dirs.push(d)
  return d
}

describe('the data directory lock', () => {
  it('refuses a second holder, naming the first (pid, host, start), until the first releases it', () => {
    const dir = dataDir()
    const first = lockDataDir(dir, new Date('2026-11-26T08:00:00Z'))
    try {
      const refusal = `the data directory ${dir} is in use by another glitchbox server (pid ${process.pid} on ${hostname()}, started 2026-11-26T08:00:00.000Z)`
      expect(() => lockDataDir(dir)).toThrow(DataDirError)
      expect(() => lockDataDir(dir)).toThrow(refusal)
      // Reading the owner did not loosen the lock (closing a file can drop a process's fcntl locks).
      expect(() => lockDataDir(dir)).toThrow(refusal)
    } finally {
      first.release()
    }
    const second = lockDataDir(dir)
    expect(second.owner.pid).toBe(process.pid)
    second.release()
  })

  it('names a data directory it cannot create', () => {
    const dir = dataDir()
    expect(() => lockDataDir(`${dir}/${'x'.repeat(300)}`)).toThrow(/^cannot open .*: /)
  })
})
