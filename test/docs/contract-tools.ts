import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../helpers/server-process'
import type { TestApp } from '../helpers/test-app'

/** The environment the contract tools run in: no telemetry, no update check, nothing fetched. */
export const TOOL_ENV = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }

/** A devDependency's command (`node_modules/.bin/<name>`), run by Node as npm would. */
export const toolBin = (name: string) => join(ROOT, 'node_modules', '.bin', name)

/** Writes the app's `/openapi.json` into `dir` and returns the file's path and the document. */
export async function writeDocument(t: TestApp, dir: string): Promise<{ file: string; doc: Record<string, any> }> {
  const doc = (await t.request('GET', '/openapi.json')).body
  const file = join(dir, 'openapi.json')
  writeFileSync(file, JSON.stringify(doc, null, 1))
  return { file, doc }
}
