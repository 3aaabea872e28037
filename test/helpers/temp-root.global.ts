import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TEMP_ROOT_ENV } from './temp-dirs'

/**
 * Vitest global setup: every temp directory of this run (tempDir) goes into one folder of its own,
 * so runs side by side never see each other's. After the last test it is removed whatever happened,
 * and a directory a test left behind fails the run, naming it (worker threads have all finished by
 * then, so the check never races a test).
 */
export default function setup() {
  const root = mkdtempSync(join(tmpdir(), 'glitchbox-run-'))
  // Worker threads and the servers tests spawn inherit the environment.
  process.env[TEMP_ROOT_ENV] = root
  return () => {
    const left = readdirSync(root)
    rmSync(root, { recursive: true, force: true })
    if (left.length > 0) {
      console.error(`Tests left ${left.length} temp director${left.length === 1 ? 'y' : 'ies'} behind (removed now; fix the test that made them): ${left.join(', ')}`)
      process.exitCode = 1
    }
  }
}
