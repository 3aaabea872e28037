import * as z from 'zod'
import { addExamples } from './examples'
import { ErrorEnvelope, type ErrorStatus, type OperationDoc, operationDocs, SentryError, submitRequestExample } from './responses'

type Json = Record<string, any>

/** How an operation authenticates; decided by its path, the same rule the auth macros follow. */
export type Access = 'public' | 'session' | 'apiKey' | 'bodyApiKey' | 'optionalSession' | 'sentryKey'

/** Sentry's ingest routes (modules/sentry), at the root with the DSN id: the key in X-Sentry-Auth or `sentry_key` (Unreal's in its path). */
const SENTRY_ROUTE = /^\/api\/\{dsnId\}\//

const SDK_KEY_ROUTES = new Set(['/api/bugs/submit', '/api/bugs/settings', '/api/bugs/similar', '/api/bugs/vote', '/api/bugs/{id}/attachments', '/api/events/track', '/api/events/track/batch', '/api/perf/snapshot', '/api/session-replays'])
const BODY_KEY_ROUTES = new Set(['/api/sessions/start', '/api/sessions/end'])
const PUBLIC_ROUTES = [
  /^\/health$/,
  /^\/api\/(maintenance\/active|server-info)$/,
  /^\/api\/auth\/(signup|login|verify-email|forgot-password|reset-password)$/,
  /^\/api\/(tracker|roadmap|branding|files)\//,
  /^\/api\/billing\/webhook$/,
  /^\/api\/notifications\/unsubscribe$/,
  // Discord signs its calls (Ed25519), checked by the route itself: no session.
  /^\/api\/discord\/interactions\/[^/]+$/,
]

/** The credential `method path` needs. */
export function accessOf(method: string, path: string): Access {
  if (SENTRY_ROUTE.test(path)) return path.includes('{apiKey}') ? 'public' : 'sentryKey'
  if (SDK_KEY_ROUTES.has(path)) return 'apiKey'
  if (BODY_KEY_ROUTES.has(path)) return 'bodyApiKey'
  if (path === '/api/auth/resend-verification') return 'optionalSession'
  if (method === 'GET' && path === '/api/projects/{slug}/changelog') return 'public'
  return PUBLIC_ROUTES.some((r) => r.test(path)) ? 'public' : 'session'
}

const SECURITY: Record<Access, Json[]> = {
  public: [],
  // The session routes take the key in the body, which OpenAPI security schemes cannot name.
  bodyApiKey: [],
  apiKey: [{ apiKey: [] }],
  session: [{ session: [] }, { cookie: [] }],
  optionalSession: [{}, { session: [] }, { cookie: [] }],
  sentryKey: [{ sentryAuth: [] }, { sentryKey: [] }],
}

// Tags as the modules name them, mapped to the document's domain tags.
const TAG_NAMES: Record<string, string> = { 'Bug reports': 'Reports', 'Public page settings': 'Settings' }

export const TAGS: { name: string; description: string }[] = [
  { name: 'Auth', description: 'Sign-up, sign-in, sessions, profile, data export and account deletion' },
  { name: 'Projects', description: 'Projects, their API key, setup status, activity and audit log' },
  { name: 'Reports', description: 'Bug reports: list and search, filing, triage, bulk changes, occurrences, CSV export' },
  { name: 'Report workflow', description: 'Dependencies, due dates, custom fields, templates, satisfaction, SLA and alert rules, saved filters and views' },
  { name: 'Comments', description: 'Comments on reports (internal ones are team-only)' },
  { name: 'Labels', description: 'Project labels and their use on reports' },
  { name: 'Attachments', description: 'Files attached to reports' },
  { name: 'SDK', description: 'Routes game clients call with the project API key (`X-API-Key`; `api_key` in the body for sessions)' },
  { name: 'Public', description: 'Public tracker, roadmap, branding, files and health: no credential' },
  { name: 'Settings', description: 'Public page, branding and in-game widget settings' },
  { name: 'Changelog', description: 'Release notes, public once published' },
  { name: 'Webhooks', description: 'Generic outgoing webhooks and their deliveries' },
  { name: 'Notifications', description: 'Email notification preferences and unsubscribe links' },
  { name: 'Team', description: 'The account, its members and invitations' },
  { name: 'Permissions', description: 'Permission catalog and per-member overrides' },
  { name: 'Billing', description: 'Plans and Stripe billing (400 when billing is not configured)' },
  { name: 'Analytics', description: 'Dashboards, crash and release health, performance, players and telemetry, read from daily rollups' },
  { name: 'Integrations', description: 'Chat, alerting, issue tracker, crash-tracking and store-review connections' },
  { name: 'Steam', description: 'Steam apps, reviews and refund signals' },
  { name: 'Chat channels', description: 'Discord and Slack channels that receive report events through incoming webhooks' },
  { name: 'Discord', description: 'Players file reports from the studio’s Discord server with /report: the settings, and the signed Interactions Endpoint Discord calls' },
  { name: 'Git', description: 'A GitHub or GitLab repository: issue search, and reports filed or linked as issues' },
  {
    name: 'Debug files',
    description: 'Symbols and source maps uploaded with sentry-cli (`/api/0/…`, Sentry\'s paths; errors answer `{"detail": …}`) and the project\'s list of them (README "Symbols and source maps")',
  },
  {
    name: 'Sentry SDKs',
    description: "Sentry's ingest protocol, so games using Sentry's SDKs (and Unreal's crash reporter) report here unmodified: the DSN is in the project read. No /api/v1 form; errors answer `{\"detail\": …}` (README \"Sentry SDKs\")",
  },
]

const ERROR_TEXT: Record<ErrorStatus, string> = {
  400: 'Malformed JSON, a validation error (the message names the fields) or a body past the route\'s limit (the message names it)',
  401: 'Missing or invalid credential',
  403: 'Missing permission, or a feature or limit of the plan (the message says how to lift it)',
  404: 'Not found (also for projects the caller is not a member of)',
  409: 'Conflict with existing data',
  413: 'Request body too large',
  414: 'Request URL (path or query string) too long',
  429: 'Rate limited; `Retry-After` gives the seconds to wait',
  502: 'An external service refused or could not be reached',
  503: 'The server is busy decoding other uploads; `Retry-After` gives the seconds to wait',
}

const toSchema = (schema: z.ZodType): Json => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'output' }) as Json
  return json
}

/** The error statuses `method path` can answer: from its credential, parameters and body, plus what its doc adds. */
export function errorStatusesOf(method: string, path: string, op: Json, doc: OperationDoc): ErrorStatus[] {
  // Every URL past the length cap answers 414, /health included.
  const out = new Set<ErrorStatus>([...(doc.errors ?? []), 414])
  if (!path.startsWith('/api/')) return [...out]
  out.add(429)
  // A DSN id or key segment no route takes (a slash, nothing) is the API's own 404, not Sentry's answer.
  // 503: the server-wide decoding budget stayed spent for the whole wait (http/decode-budget.ts).
  if (SENTRY_ROUTE.test(path)) return [...out.add(400).add(401).add(404).add(413).add(503)].sort()
  const access = accessOf(method, path)
  if (access !== 'public') out.add(401)
  const params: Json[] = op.parameters ?? []
  // A body past its limit is a 400 too (the spec's error table); only Sentry's routes answer 413.
  if (op.requestBody) out.add(400)
  if (params.some((p) => p.in === 'query')) out.add(400)
  if (params.some((p) => p.in === 'path')) out.add(404).add(400)
  // Project routes: 404 for non-members, 403 for members without the route's permission.
  if (access === 'session' && path.startsWith('/api/projects/{slug}')) out.add(404).add(403)
  if (access === 'session' && /^\/api\/(account|permissions|billing|invites|analytics|usage)/.test(path)) out.add(403)
  if (/^\/api\/billing\//.test(path) && path !== '/api/billing/subscription') out.add(400)
  return [...out].sort()
}

// A stored file is served with the type read from its bytes at upload (src/files/mime.ts): images, videos, text or JSON.
const binary = { schema: { type: 'string', format: 'binary' } }
const FILE_CONTENT: Json = { 'image/*': binary, 'video/*': binary, 'text/*': binary, 'application/json': { schema: { description: 'The uploaded JSON file as it was stored' } } }

/**
 * The server the paths are relative to: the origin that serves this document and /docs. The /api/v1 form is a
 * statement here and in `info`: listing every path twice would double the document and its operation ids.
 */
export const SERVERS = [
  {
    url: '/',
    description: 'This Glitchbox server. Every /api/… path is also served as /api/v1/… (use that form in long-lived integrations); /health has no versioned form.',
  },
]

const envelopeOf = (data: Json) => ({
  type: 'object',
  required: ['ok', 'data'],
  properties: { ok: { type: 'boolean', const: true }, data },
})

function successResponse(doc: OperationDoc, description: string): Json {
  switch (doc.content) {
    case 'csv':
      return { description, content: { 'text/csv': { schema: { type: 'string' } } } }
    case 'file':
      return { description, content: FILE_CONTENT }
    case 'plain-json':
      return { description, content: { 'application/json': { schema: toSchema(doc.data) } } }
    case 'text':
      return { description, content: { 'text/plain': { schema: toSchema(doc.data) } } }
  }
  const media: Json = { schema: envelopeOf(toSchema(doc.data)) }
  if (doc.example !== undefined) media.example = { ok: true, data: doc.example }
  return { description, content: { 'application/json': media } }
}

/**
 * Completes the document @elysiajs/openapi generates from the routes: responses (the envelope with each
 * operation's `data` shape and its error statuses), security per credential, domain tags and SDK examples.
 * Operations without an entry in `operationDocs` are returned in `undocumented` (a test keeps it empty).
 */
export function completeDocument(generated: Json): { document: Json; undocumented: string[] } {
  const undocumented: string[] = []
  const paths: Json = {}
  for (const [path, item] of Object.entries<Json>(generated.paths ?? {})) {
    paths[path] = {}
    for (const [method, raw] of Object.entries<Json>(item)) {
      const op: Json = { ...raw }
      const key = `${method.toUpperCase()} ${path}`
      const doc = operationDocs[key]
      op.tags = (op.tags ?? ['Public']).map((t: string) => TAG_NAMES[t] ?? t)
      const access = accessOf(method.toUpperCase(), path)
      op.security = SECURITY[access]
      if (access === 'bodyApiKey') {
        op.description = [op.description, 'Authenticated by the project API key in the body field `api_key` (no `X-API-Key` header).'].filter(Boolean).join('\n\n')
        const body = op.requestBody?.content?.['application/json']?.schema
        if (body?.properties?.api_key) {
          body.properties.api_key = { ...body.properties.api_key, description: 'Project API key (sk_live_…)', example: 'sk_live_…' }
          body.required = [...new Set(['api_key', ...(body.required ?? [])])]
        }
      }
      if (access === 'optionalSession') op.description = [op.description, 'Signed in: resends to you. Signed out: send `email`.'].filter(Boolean).join('\n\n')
      if (!doc) {
        undocumented.push(key)
        paths[path][method] = op
        continue
      }
      if (doc.requestBody && !op.requestBody) {
        op.requestBody = { required: true, content: Object.fromEntries(Object.entries(doc.requestBody).map(([media, schema]) => [media, { schema: toSchema(schema) }])) }
      }
      const status = doc.status ?? 200
      const responses: Json = { [status]: successResponse(doc, doc.description ?? (status === 201 ? 'Created' : 'Success')) }
      if (doc.alsoStatus) {
        const { status: also, description, data } = doc.alsoStatus
        responses[also] = successResponse({ ...doc, data: data ?? doc.data, example: undefined }, description)
      }
      if (doc.redirect) {
        const moved = { type: 'object', required: ['ok', 'error', 'merged_into'], properties: { ok: { type: 'boolean', const: false }, error: { type: 'string' }, merged_into: { type: 'integer' } } }
        responses[308] = { description: doc.redirect, headers: { Location: { schema: { type: 'string' }, description: 'The same request for the report it was merged into' } }, content: { 'application/json': { schema: moved } } }
      }
      const errorPrefix = (s: ErrorStatus) => (doc.errorFormat === 'sentry' && s !== 404 ? 'SentryError' : 'Error')
      for (const s of errorStatusesOf(method.toUpperCase(), path, op, doc)) responses[s] = { $ref: `#/components/responses/${errorPrefix(s)}${s}` }
      op.responses = responses
      paths[path][method] = op
    }
  }
  const submit = paths['/api/bugs/submit']?.post
  const submitJson = submit?.requestBody?.content?.['application/json']
  if (submitJson) submitJson.example = submitRequestExample
  const responses: Json = {}
  // Only Sentry's routes answer 413 and 503 (the decoding budget), in their own shape (SentryError… below).
  for (const [s, text] of Object.entries(ERROR_TEXT).filter(([s]) => s !== '413' && s !== '503')) {
    responses[`Error${s}`] = { description: text, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
  }
  for (const s of [400, 401, 403, 413, 414, 429, 503] as const) {
    const text = s === 401 ? 'A wrong key or DSN id, or a project not taking reports (`is_public` off); for sentry-cli, a missing or unknown API token' : s === 429 ? `${ERROR_TEXT[429]}; \`X-Sentry-Rate-Limits\` too` : ERROR_TEXT[s]
    responses[`SentryError${s}`] = { description: text, content: { 'application/json': { schema: { $ref: '#/components/schemas/SentryError' } } } }
  }
  const document = {
    ...generated,
    servers: SERVERS,
    tags: TAGS,
    paths,
    components: {
      ...generated.components,
      schemas: { ...generated.components?.schemas, Error: toSchema(ErrorEnvelope), SentryError: toSchema(SentryError) },
      responses,
      securitySchemes: {
        session: { type: 'http', scheme: 'bearer', description: 'Session token from /api/auth/login or /api/auth/signup' },
        cookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'glitchbox_session',
          description: 'Browser session set by login or signup with `X-Glitchbox-Client: web`; state-changing requests also need an `Origin` header equal to the server origin',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Project API key (sk_live_…) for SDK routes' },
        sentryAuth: { type: 'apiKey', in: 'header', name: 'X-Sentry-Auth', description: '`Sentry sentry_key=<project API key>, sentry_version=7`, as Sentry SDKs send it' },
        sentryKey: { type: 'apiKey', in: 'query', name: 'sentry_key', description: 'The project API key in the query string (browser SDKs), or in the envelope header’s dsn' },
      },
    },
  }
  addExamples(document.paths)
  addExamples(document.components)
  return { document, undocumented }
}
