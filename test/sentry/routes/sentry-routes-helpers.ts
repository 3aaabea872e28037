import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { forgetSdkCallers } from '../../../src/http/sdk-callers'
import { projects } from '../../../src/modules/projects/projects.table'
import type { TestApp } from '../../helpers/test-app'
import { sdkProject } from '../../sdk/sdk-helpers'

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures')
export const CAPTURE_KEY = 'sk_live_capture0key'

interface Captured {
  file: string
  client: string
  method: string
  path: string
  query: string
  headers: Record<string, string>
  items: string[]
}

/** The requests real Sentry clients sent (test/sentry/fixtures/README.md), by file name. */
export const captured: Captured[] = JSON.parse(readFileSync(join(FIXTURES, 'captured', 'index.json'), 'utf8')).requests

/** A project answering to the captured DSN: key `sk_live_capture0key`, DSN id 42. */
export async function capturedProject(t: TestApp, plan: 'free' | 'studio' = 'studio') {
  const ctx = await sdkProject(t, plan)
  await t.deps.db.write((q) => q.update(projects).set({ apiKey: CAPTURE_KEY, dsnId: 42 }).where(eq(projects.id, ctx.project.id)))
  forgetSdkCallers(t.deps.db)
  return ctx
}

/** Sends one captured request as it arrived (its path, query, headers and body bytes). */
export async function replay(t: TestApp, name: string, o: { ip?: string } = {}) {
  const c = captured.find((r) => r.file.startsWith(name))
  if (!c) throw new Error(`no captured request ${name}`)
  const headers = new Headers()
  for (const [k, v] of Object.entries(c.headers)) if (!['host', 'connection', 'transfer-encoding', 'content-length'].includes(k)) headers.set(k, v)
  headers.set('x-forwarded-for', o.ip ?? '203.0.113.7')
  const body = readFileSync(join(FIXTURES, 'captured', c.file))
  const res = await t.app.handle(new Request(`http://localhost${c.path}${c.query}`, { method: c.method, headers, body }))
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, json: text.startsWith('{') ? JSON.parse(text) : null }
}

/** POSTs raw bytes to a Sentry route. */
export async function post(t: TestApp, path: string, body: BodyInit | null, headers: Record<string, string> = {}) {
  const res = await t.app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'x-forwarded-for': '203.0.113.8', ...headers }, body }))
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, json: text.startsWith('{') ? JSON.parse(text) : null }
}
