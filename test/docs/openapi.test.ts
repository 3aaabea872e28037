import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessOf, TAGS } from '../../src/docs/document'
import { operationDocs } from '../../src/docs/responses'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { type Operation, operationsOf } from '../fuzz/world'

let t: TestApp
let doc: Record<string, any>
let operations: Operation[]

beforeAll(async () => {
  t = createTestApp()
  ;({ doc, operations } = await operationsOf(t))
})
afterAll(() => t.close())

const SDK_KEY_ROUTES = [
  'POST /api/bugs/submit',
  'GET /api/bugs/settings',
  'POST /api/bugs/{id}/attachments',
  'POST /api/events/track',
  'POST /api/events/track/batch',
  'POST /api/perf/snapshot',
  'POST /api/session-replays',
]
const op = (key: string) => {
  const [method, path] = key.split(' ')
  return doc.paths[path!]?.[method!.toLowerCase()]
}

describe('docs page', () => {
  it.each(['/docs', '/docs/'])('%s loads its scripts from this server, and they point at a spec URL that answers', async (page) => {
    const res = await t.request('GET', page)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    // No inline script: every script is a file of this server, resolved as the browser does against the page's URL.
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    const scripts = [...res.body.matchAll(/<script src="([^"]+)"/g)].map((m) => new URL(m[1]!, `http://localhost${page}`))
    expect(scripts.map((u) => u.origin)).toEqual(['http://localhost', 'http://localhost'])
    const bodies = await Promise.all(scripts.map((u) => t.request('GET', u.pathname)))
    for (const b of bodies) {
      expect(b.status).toBe(200)
      expect(b.headers.get('content-type')).toContain('text/javascript')
    }
    const specUrl = /"url":"([^"]+)"/.exec(bodies.map((b) => b.body).join('\n'))![1]!
    const spec = await t.request('GET', new URL(specUrl, `http://localhost${page}`).pathname)
    expect(spec.status).toBe(200)
    expect(spec.body.openapi).toMatch(/^3\./)
  })

  it('gives each response its own style nonce, the one its CSP admits', async () => {
    const [a, b] = [await t.request('GET', '/docs'), await t.request('GET', '/docs')]
    const nonceOf = (r: { body: string }) => /name="glitchbox-style-nonce" content="([^"]+)"/.exec(r.body)![1]!
    expect(nonceOf(a)).not.toBe(nonceOf(b))
    expect(a.headers.get('content-security-policy')).toContain(`style-src 'self' 'nonce-${nonceOf(a)}'`)
  })
})

describe('OpenAPI document', () => {
  it('is valid for the real validator', async () => {
    const result = await new Validator().validate(structuredClone(doc))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('lists /api routes once (no /api/v1 duplicates) and every operation has a response entry', () => {
    expect(operations.length).toBeGreaterThan(100)
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/'))).toEqual([])
    const undocumented = operations.map((o) => `${o.method} ${o.path}`).filter((key) => !operationDocs[key])
    expect(undocumented).toEqual([])
    const stale = Object.keys(operationDocs).filter((key) => !op(key))
    expect(stale).toEqual([])
  })

  it('documents the success envelope with its data shape and the error envelope for each status', () => {
    for (const o of operations) {
      const key = `${o.method} ${o.path}`
      const responses = o.op.responses
      const success = Object.keys(responses).filter((s) => s.startsWith('2'))
      expect(success, key).toContain(String(operationDocs[key]!.status ?? 200))
      if (o.path.startsWith('/api/') && !operationDocs[key]!.content) {
        const schema = responses[success[0]!].content['application/json'].schema
        expect(schema.required, key).toEqual(['ok', 'data'])
        expect(schema.properties.data, key).toBeTruthy()
      }
      // Sentry's routes answer errors as Sentry does (`{"detail": …}`); every other error answer is the envelope.
      const sentry = operationDocs[key]!.errorFormat === 'sentry'
      if (o.path.startsWith('/api/')) expect(responses['429'], key).toEqual({ $ref: `#/components/responses/${sentry ? 'SentryError' : 'Error'}429` })
      // Error answers are the envelope, except /health's own 503 shape (checked below); on Sentry's
      // routes a path segment no route takes is the API's own 404.
      for (const s of Object.keys(responses).filter((s) => Number(s) >= 400 && o.path !== '/health')) {
        const shape = sentry && s !== '404' ? 'SentryError' : 'Error'
        expect(responses[s].$ref, key).toBe(`#/components/responses/${shape}${s}`)
        expect(doc.components.responses[`${shape}${s}`].content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${shape}` })
      }
    }
    expect(doc.components.schemas.Error.required).toEqual(['ok', 'error'])
    // Created routes answer 201.
    expect(Object.keys(op('POST /api/projects').responses)).toContain('201')
    expect(Object.keys(op('POST /api/projects/{slug}/labels').responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404', '409', '429']))
    // A body past its limit is a 400 on this API's routes (the spec's error table); Sentry's routes keep 413.
    expect(Object.keys(op('POST /api/bugs/submit').responses)).not.toContain('413')
    expect(Object.keys(op('POST /api/{dsnId}/envelope').responses)).toContain('413')
    expect(Object.keys(op('POST /api/projects/{slug}/webhooks/generic/{webhookId}/test').responses)).toContain('502')
    expect(op('GET /api/projects/{slug}/bugs').responses['200'].content['application/json'].schema.properties.data.required).toEqual(
      expect.arrayContaining(['bugs', 'total', 'page', 'limit', 'total_pages']),
    )
  })

  it('marks SDK routes with X-API-Key, session routes with the body api_key, team routes with bearer or cookie, public routes with nothing', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' })
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.components.securitySchemes.cookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'glitchbox_session' })
    for (const key of SDK_KEY_ROUTES) expect(op(key).security, key).toEqual([{ apiKey: [] }])
    for (const key of ['POST /api/sessions/start', 'POST /api/sessions/end']) {
      expect(op(key).security, key).toEqual([])
      expect(op(key).description, key).toContain('api_key')
      const body = op(key).requestBody.content['application/json'].schema
      expect(body.properties.api_key.description, key).toContain('API key')
      expect(body.required, key).toContain('api_key')
    }
    for (const key of ['GET /api/projects', 'PATCH /api/projects/{slug}/bugs/{number}', 'GET /api/account', 'GET /api/auth/me', 'GET /api/billing/subscription']) {
      expect(op(key).security, key).toEqual([{ session: [] }, { cookie: [] }])
    }
    for (const key of ['GET /api/server-info', 'POST /api/billing/webhook', 'GET /api/tracker/{slug}', 'POST /api/auth/login', 'POST /api/auth/signup', 'GET /api/projects/{slug}/changelog', 'GET /api/files/{key}', 'GET /health']) {
      expect(op(key).security, key).toEqual([])
    }
    // Every operation says which: none is left without a security entry.
    for (const o of operations) expect(o.op.security, `${o.method} ${o.path}`).toBeDefined()
    expect(accessOf('POST', '/api/projects/{slug}/changelog')).toBe('session')
  })

  it('groups operations by domain tags that the document declares', () => {
    const declared = new Set(doc.tags.map((tag: { name: string }) => tag.name))
    expect([...declared]).toEqual(TAGS.map((tag) => tag.name))
    for (const o of operations) {
      expect(o.op.tags?.length, `${o.method} ${o.path}`).toBe(1)
      expect(declared.has(o.op.tags[0]), `${o.method} ${o.path} tag ${o.op.tags[0]}`).toBe(true)
    }
    expect(op('GET /api/projects/{slug}/bugs').tags).toEqual(['Reports'])
    expect(op('PUT /api/projects/{slug}/tracker-settings').tags).toEqual(['Settings'])
  })

  it('names the server it is served from and describes the /api/v1 form of every /api path', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.stringContaining('/api/v1/') }])
    expect(doc.info.description).toContain('/api/v1/')
    // The versioned form is a statement, not a second copy of every path.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/'))).toEqual([])
  })

  it('marks a request body optional where the route accepts none (votes, resend-verification)', () => {
    for (const key of ['POST /api/tracker/{slug}/bugs/{number}/vote', 'POST /api/roadmap/{slug}/bugs/{number}/vote', 'POST /api/auth/resend-verification']) {
      expect(op(key).requestBody.required, key).toBe(false)
    }
    expect(op('POST /api/projects').requestBody.required).toBe(true)
    expect(op('POST /api/bugs/submit').requestBody.required).toBe(true)
  })

  it("documents /health's 503 with its own unenveloped shape, and no error response nobody answers", () => {
    const health = op('GET /health').responses
    expect(health['503'].content['application/json'].schema).toMatchObject({ required: ['status', 'error', 'database'], properties: { status: { const: 'unhealthy' } } })
    expect(health['200'].content['application/json'].schema).toMatchObject({ properties: { status: { const: 'healthy' } } })
    const used = new Set(JSON.stringify(doc.paths).match(/#\/components\/responses\/\w+/g)?.map((r) => r.split('/').at(-1)))
    expect(Object.keys(doc.components.responses).filter((name) => !used.has(name))).toEqual([])
  })

  it("documents the body Stripe posts to the billing webhook", () => {
    const body = op('POST /api/billing/webhook').requestBody
    expect(body.required).toBe(true)
    expect(body.content['application/json'].schema.required).toEqual(['id', 'type', 'data'])
  })

  it('lists the media types a stored file is served with, and event ids as the numbers they are', () => {
    const file = op('GET /api/files/{key}').responses['200'].content
    expect(Object.keys(file).sort()).toEqual(['application/json', 'image/*', 'text/*', 'video/*'])
    const details = op('GET /api/projects/{slug}/events/{name}/details').responses['200'].content['application/json'].schema
    expect(details.properties.data.properties.events.items.properties.id.type).toBe('integer')
  })

  it('gives the SDK submit a request and a response example', () => {
    const submit = op('POST /api/bugs/submit')
    expect(submit.requestBody.content['application/json'].example).toMatchObject({ title: expect.any(String), description: expect.any(String) })
    expect(submit.responses['201'].content['application/json'].example).toMatchObject({ ok: true, data: { id: expect.any(String), report_number: expect.any(Number) } })
    expect(submit.responses['200'].description).toMatch(/occurrence of an existing report/i)
  })
})
