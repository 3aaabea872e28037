import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { api, ApiError, apiUrl, clientEnv, messageOf } from './client'
import { createResource } from './resource'

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

let calls: { url: string; init: RequestInit }[] = []
let answer: () => Response | Promise<Response>
const original = { ...clientEnv }
let unauthorized = 0

beforeEach(() => {
  calls = []
  unauthorized = 0
  clientEnv.fetch = async (url, init) => {
    calls.push({ url, init })
    return answer()
  }
  clientEnv.onUnauthorized = () => {
    unauthorized++
  }
})
afterEach(() => Object.assign(clientEnv, original))

describe('apiUrl', () => {
  it.each([
    ['/projects', undefined, '/api/projects'],
    ['projects', undefined, '/api/projects'],
    ['/api/projects', undefined, '/api/projects'],
    ['/projects/x/bugs', { status: 'open', q: '', page: 2, none: undefined }, '/api/projects/x/bugs?status=open&page=2'],
    ['/bugs', { label: ['a', 'b'] }, '/api/bugs?label=a&label=b'],
  ] as const)('%s %j → %s', (path, query, want) => {
    expect(apiUrl(path, query as never)).toBe(want)
  })
})

describe('api requests', () => {
  it('unwraps the envelope and sends the session cookie, the web client header and JSON', async () => {
    answer = () => json(201, { ok: true, data: { id: 'p1' } })
    const data = await api.post<{ id: string }>('/projects', { name: 'A' })
    expect(data).toEqual({ id: 'p1' })
    const { url, init } = calls[0]!
    expect(url).toBe('/api/projects')
    expect(init.method).toBe('POST')
    expect(init.credentials).toBe('same-origin')
    expect(init.body).toBe('{"name":"A"}')
    const h = init.headers as Record<string, string>
    expect(h['Content-Type']).toBe('application/json')
    expect(h['X-Glitchbox-Client']).toBe('web')
  })

  it('sends no body and no content type on GET', async () => {
    answer = () => json(200, { ok: true, data: [] })
    await api.get('/projects')
    expect(calls[0]!.init.body).toBeUndefined()
    expect((calls[0]!.init.headers as Record<string, string>)['Content-Type']).toBeUndefined()
  })

  it.each([
    [400, { ok: false, error: 'name is required' }, 'name is required'],
    // A refusal names the permission as the dashboard does, not by its key.
    [403, { ok: false, error: 'you need the project.settings permission' }, 'You need the “Project settings” permission: ask an owner or admin of the account.'],
    [403, { ok: false, error: 'only the owner can do that' }, 'only the owner can do that'],
    [404, { ok: false, error: 'project not found' }, 'project not found'],
    [409, { ok: false, error: 'email already registered' }, 'email already registered'],
  ])('throws ApiError %i with the server message', async (status, body, message) => {
    answer = () => json(status, body)
    const err = await api.get<never>('/x').catch((e: unknown) => e as ApiError)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.status).toBe(status)
    expect(err.message).toBe(message)
    expect(unauthorized).toBe(0)
  })

  it('falls back to the status when the error is not JSON', async () => {
    answer = () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })
    const err = await api.get<never>('/x').catch((e: unknown) => e as ApiError)
    expect(err.status).toBe(502)
    expect(err.message).toContain('502')
  })

  it('says to wait on 429', async () => {
    answer = () => new Response('', { status: 429 })
    expect(messageOf(await api.get<never>('/x').catch((e: unknown) => e as ApiError))).toMatch(/too many requests/i)
  })

  it('calls onUnauthorized on 401 unless told not to', async () => {
    answer = () => json(401, { ok: false, error: 'missing or invalid session token' })
    await expect(api.get('/projects')).rejects.toMatchObject({ status: 401 })
    expect(unauthorized).toBe(1)
    await expect(api.post('/auth/login', {}, { redirectOn401: false })).rejects.toMatchObject({ status: 401, message: 'missing or invalid session token' })
    expect(unauthorized).toBe(1)
  })

  it('turns a network failure into ApiError 0', async () => {
    answer = () => Promise.reject(new TypeError('fetch failed'))
    const err = await api.get<never>('/x').catch((e: unknown) => e as ApiError)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.status).toBe(0)
  })

  it('sends FormData as it is', async () => {
    answer = () => json(200, { ok: true, data: null })
    const form = new FormData()
    form.set('file', new Blob(['x']), 'a.png')
    await api.post('/upload', form)
    expect(calls[0]!.init.body).toBe(form)
    expect((calls[0]!.init.headers as Record<string, string>)['Content-Type']).toBeUndefined()
  })

  it('returns text for non-JSON answers', async () => {
    answer = () => new Response('a,b\n1,2', { status: 200, headers: { 'content-type': 'text/csv' } })
    expect(await api.get<string>('/export')).toBe('a,b\n1,2')
  })
})

describe('createResource', () => {
  it('goes loading → data, and loading → error on failure', async () => {
    let fail = false
    const r = createResource(async () => {
      if (fail) throw new ApiError(500, 'boom')
      return 42
    })
    const p = r.reload()
    expect(r.loading.value).toBe(true)
    await p
    expect(r.loading.value).toBe(false)
    expect(r.data.value).toBe(42)
    fail = true
    await r.reload()
    expect(r.error.value?.message).toBe('boom')
    expect(r.data.value).toBe(42)
  })

  it('keeps the newest of overlapping loads', async () => {
    const resolvers: ((v: number) => void)[] = []
    const r = createResource(() => new Promise<number>((res) => resolvers.push(res)))
    const first = r.reload()
    const second = r.reload()
    resolvers[1]!(2)
    resolvers[0]!(1)
    await Promise.all([first, second])
    expect(r.data.value).toBe(2)
    expect(r.loading.value).toBe(false)
  })

  it('passes an abort signal that fires when superseded', async () => {
    const signals: AbortSignal[] = []
    const r = createResource(async (s) => {
      signals.push(s)
      return 1
    })
    await r.reload()
    await r.reload()
    expect(signals[0]!.aborted).toBe(true)
    expect(signals[1]!.aborted).toBe(false)
  })
})

