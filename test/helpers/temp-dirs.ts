import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Set by the global setup (temp-root.global.ts) to this run's own folder in the system temp folder. */
export const TEMP_ROOT_ENV = 'GLITCHBOX_TEST_TMP'

/**
 * A fresh directory `glitchbox-<kind>-…` for a test: in this run's temp root under vitest (the run
 * fails if it is still there at the end), in the system temp folder elsewhere (benchmarks). The
 * caller removes it with removeTempDir.
 */
export function tempDir(kind: string): string {
  return mkdtempSync(join(process.env[TEMP_ROOT_ENV] ?? tmpdir(), `glitchbox-${kind}-`))
}

/** Removes a directory made by tempDir, with everything in it. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}
