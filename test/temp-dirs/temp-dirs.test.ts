import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, removeTempDataDirs, tempDataDir } from '../helpers/server-process'
import { removeTempDir, TEMP_ROOT_ENV, tempDir } from '../helpers/temp-dirs'
import { createTestApp } from '../helpers/test-app'

/** Source files under `dir` (recursively), as paths relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx)$/.test(f))
    .map((f) => join(dir, f))
}

describe('temp directories of the test suite', () => {
  it('are all made by test/helpers/temp-dirs.ts, so each lands in the run folder that the global setup checks and removes', () => {
    // The helper itself, the global setup's run folder, and this file (which names the call).
    const allowed = new Set([join('test', 'helpers', 'temp-dirs.ts'), join('test', 'helpers', 'temp-root.global.ts'), relative(ROOT, import.meta.filename)])
    const makers = ['src', 'test', 'web']
      .flatMap(sources)
      .filter((f) => !allowed.has(f) && /mkdtemp/.test(readFileSync(join(ROOT, f), 'utf8')))
    expect(makers).toEqual([])
  })

  it('go into this run folder', () => {
    const root = process.env[TEMP_ROOT_ENV]
    expect(root).toMatch(/glitchbox-run-/)
    const dir = tempDir('probe')
    expect(relative(root!, dir)).toMatch(/^glitchbox-probe-/)
    expect(readdirSync(root!)).toContain(relative(root!, dir))
    removeTempDir(dir)
    expect(existsSync(dir)).toBe(false)
  })

  it('are removed by createTestApp().close() and removeTempDataDirs()', () => {
    const t = createTestApp()
    expect(existsSync(t.dir)).toBe(true)
    t.close()
    expect(existsSync(t.dir)).toBe(false)
    const dirs = [tempDataDir(), tempDataDir()]
    removeTempDataDirs()
    for (const d of dirs) expect(existsSync(d)).toBe(false)
  })
})
