// axe-core in the browser tests: its serious and critical violations on a page, one line each. The
// page's context must bypass the dashboard's CSP (`bypassCSP: true`): axe goes in as an inline script.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** `rule: selectors` for each serious or critical axe violation on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE })
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }
    const r = await (window as unknown as { axe: { run(): Promise<Result> } }).axe.run()
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`)
  })
}
