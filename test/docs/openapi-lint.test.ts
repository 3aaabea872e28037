import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/server-process'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'
import { TOOL_ENV, toolBin, writeDocument } from './contract-tools'

let t: TestApp
let dir: string
let file: string
beforeAll(async () => {
  t = createTestApp()
  dir = tempDir('lint')
  ;({ file } = await writeDocument(t, dir))
})
afterAll(() => {
  t.close()
  removeTempDir(dir)
})

interface Problem {
  ruleId: string
  severity: 'error' | 'warn'
  message: string
  location: { pointer: string }[]
}

describe("Redocly's linter on /openapi.json", () => {
  it('finds no error and no warning with the recommended rules (redocly.yaml)', { timeout: 60_000 }, async () => {
    const proc = Bun.spawn([toolBin('redocly'), 'lint', file, '--format=json', `--config=${ROOT}/redocly.yaml`], { cwd: ROOT, env: TOOL_ENV, stdout: 'pipe', stderr: 'pipe' })
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    const start = out.indexOf('{')
    expect(start, `redocly printed no report:\n${out}\n${err}`).toBeGreaterThanOrEqual(0)
    const report = JSON.parse(out.slice(start)) as { totals: { errors: number; warnings: number }; problems: Problem[] }
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)
    expect(problems).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    expect(proc.exitCode).toBe(0)
  })
})
