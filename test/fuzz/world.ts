import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { accountMembers } from '../../src/modules/auth/accounts.table'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'

export type JsonSchema = Record<string, any>

export interface Operation {
  method: string
  /** OpenAPI path, e.g. `/api/projects/{slug}`. */
  path: string
  op: Record<string, any>
}

/** Every operation of the app's generated OpenAPI document. */
export async function operationsOf(t: TestApp): Promise<{ doc: Record<string, any>; operations: Operation[] }> {
  const doc = (await t.request('GET', '/openapi.json')).body
  const operations: Operation[] = []
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) operations.push({ method: method.toUpperCase(), path, op })
  }
  return { doc, operations }
}

/**
 * A studio-plan owner with a project, a report, a label, a comment, a webhook, a changelog entry, a teammate
 * and an invitation: path parameters resolve to real rows, so authenticated routes reach their handlers.
 */
export async function seedWorld(t: TestApp) {
  const owner = await createUser(t, { plan: 'studio', password: 'correct horse battery' })
  const project = await createProject(t, owner)
  const report = await createReportIn(t, project, { title: 'Crash in the shadows', description: 'Stack trace here' })
  const slug = project.slug
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await t.request(method, path, { token: owner.token, body })
    if (res.status >= 300) throw new Error(`seed ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.data
  }
  const label = await ok('POST', `/api/projects/${slug}/labels`, { name: 'seed-label' })
  await ok('POST', `/api/projects/${slug}/bugs/${report.reportNumber}/comments`, { body: 'seed comment' })
  const webhook = await ok('POST', `/api/projects/${slug}/webhooks/generic`, { url: 'http://127.0.0.1:9/hook' })
  const entry = await ok('POST', `/api/projects/${slug}/changelog`, { title: 'v1', body: 'notes', version: '1.0', publish: true })
  await ok('PUT', `/api/projects/${slug}/tracker-settings`, { enabled: true, allow_search: true, publish: 'all' })
  await ok('PUT', `/api/projects/${slug}/roadmap-settings`, { enabled: true, show_upvotes: true })
  const mate = await createUser(t)
  await t.deps.db.write((q) => q.insert(accountMembers).values({ accountId: owner.account.id, userId: mate.user.id, role: 'member', createdAt: t.clock.now() }))
  const invite = await ok('POST', '/api/account/invites', { email: 'invitee@example.com', role: 'member' })
  const form = new FormData()
  form.set('file', new File(['hello'], 'a.txt', { type: 'text/plain' }))
  const upload = await t.request('POST', `/api/projects/${slug}/bugs/${report.reportNumber}/attachments`, { token: owner.token, body: form })
  const fileKey = String(upload.body?.data?.file_url ?? '').split('/api/files/')[1] ?? 'missing'
  const params: Record<string, string> = {
    slug,
    number: String(report.reportNumber),
    id: report.id,
    labelId: label.id,
    webhookId: webhook.id,
    entryId: entry.id,
    userId: mate.user.id,
    inviteId: invite.id ?? invite.invitation?.id ?? 'missing',
    key: fileKey,
    provider: 'slack',
    dsnId: String(project.dsnId),
    apiKey: project.apiKey,
    // sentry-cli's routes: any organization, the project by slug.
    org: 'studio',
    project: slug,
  }
  return { owner, project, report, apiKey: project.apiKey, params, invite }
}

export type World = Awaited<ReturnType<typeof seedWorld>>

/** Path with `{name}` replaced by the world's values (or by `values`, URL-encoded when asked). */
export function fillPath(path: string, values: Record<string, string>, encode = true): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = values[name] ?? 'missing'
    return encode ? encodeURIComponent(v) : v
  })
}

/** A small value that a JSON schema accepts (first enum value, minimum lengths), for a request that passes validation. */
export function exampleOf(schema: JsonSchema | undefined, name = ''): unknown {
  if (!schema) return undefined
  if (schema.example !== undefined) return schema.example
  if (schema.default !== undefined) return schema.default
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return schema.enum[0]
  if (schema.anyOf) return exampleOf(schema.anyOf[0], name)
  if (schema.oneOf) return exampleOf(schema.oneOf[0], name)
  const type = Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const key of schema.required ?? []) out[key] = exampleOf(schema.properties?.[key], key)
      return out
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => exampleOf(schema.items, name))
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1)
    case 'boolean':
      return true
    case 'string': {
      if (schema.format === 'email') return 'someone@example.com'
      if (schema.format === 'uri' || schema.format === 'url' || /url$/.test(name)) return 'https://example.com/x'
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000'
      if (schema.format === 'binary') return 'binary'
      const base = name === 'color' || /_color$/.test(name) ? '#2E5BFF' : `sample ${name}`
      return base.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? 1000)
    }
    default:
      return {}
  }
}

const SDK_KEY_PATH = /^\/api\/(bugs\/|events\/|perf\/|session-replays)/

/**
 * A request the operation's own schemas accept: required body fields and query parameters from their
 * JSON schemas, path parameters from the world, the credential the route takes.
 */
/** Routes of Sentry's protocols, answering errors as `{"detail": …}`: the SDKs' (`/api/{dsnId}/…`) and sentry-cli's (`/api/0/…`). */
export const SENTRY_OPERATION = /^\/api\/(?:\{dsnId\}|0)\//
/** The SDKs' routes: their key goes in the query (Unreal's in the path) and their bodies are theirs. */
const SENTRY_SDK_OPERATION = /^\/api\/\{dsnId\}\//
const SENTRY_FIXTURES = join(import.meta.dirname, '..', 'sentry', 'fixtures')

/** A request a Sentry route files: an envelope with an event and a session, an event, a minidump, an Unreal upload. */
function sentryRequest(w: World, o: Operation): { path: string; body: unknown } {
  const path = fillPath(o.path, w.params)
  const event = { event_id: 'f'.repeat(32), release: '1.0.0', exception: { values: [{ type: 'TypeError', value: 'x is undefined', stacktrace: { frames: [{ function: 'run', filename: 'a.js', in_app: true }] } }] } }
  if (o.path.endsWith('/envelope')) return { path: `${path}?sentry_key=${w.apiKey}`, body: `{}\n{"type":"event"}\n${JSON.stringify(event)}\n{"type":"session"}\n{"sid":"${'e'.repeat(32)}","status":"crashed"}` }
  if (o.path.endsWith('/store')) return { path: `${path}?sentry_key=${w.apiKey}`, body: event }
  if (o.path.endsWith('/minidump')) {
    const form = new FormData()
    form.set('upload_file_minidump', new File([readFileSync(join(SENTRY_FIXTURES, 'minidumps', 'linux-mini.dmp'))], 'crash.dmp'))
    form.set('sentry', JSON.stringify(event))
    return { path: `${path}?sentry_key=${w.apiKey}`, body: form }
  }
  return { path, body: new Uint8Array(readFileSync(join(SENTRY_FIXTURES, 'unreal', 'unreal_crash'))) }
}

export function validRequest(w: World, o: Operation): { path: string; body: unknown; token?: string; apiKey?: string } {
  if (SENTRY_SDK_OPERATION.test(o.path)) return sentryRequest(w, o)
  const json = o.op.requestBody?.content?.['application/json']?.schema
  const multipart = o.op.requestBody?.content?.['multipart/form-data']?.schema
  let body: any = json ? exampleOf(json) : undefined
  if (multipart) {
    body = new FormData()
    for (const k of multipart.required ?? []) {
      if (k === 'file') body.set(k, new File([GIF], 'a.gif', { type: 'image/gif' }))
      else body.set(k, k === 'bug_report_id' ? w.report.id : String(exampleOf(multipart.properties?.[k], k)))
    }
  }
  if (o.path.startsWith('/api/sessions/')) body = { ...body, api_key: w.apiKey, session_token: 'session-token-0001' }
  if (o.path === '/api/perf/snapshot') body = { ...body, bug_report_id: w.report.id }
  const query = (o.op.parameters ?? [])
    .filter((p: any) => p.in === 'query' && p.required)
    .map((p: any) => `${p.name}=${encodeURIComponent(String(p.name === 'user_id' ? w.params.userId : exampleOf(p.schema, p.name)))}`)
    .join('&')
  const path = fillPath(o.path, w.params) + (query ? `?${query}` : '')
  return { path, body, token: w.owner.token, apiKey: SDK_KEY_PATH.test(o.path) ? w.apiKey : undefined }
}

/** The smallest GIF: an upload every image and replay route accepts. */
const GIF = Uint8Array.from(atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'), (c) => c.charCodeAt(0))
