/**
 * The dashboard's one API client: same-origin fetch with the session cookie, JSON in and out,
 * the `{ok, data}` envelope unwrapped, failures thrown as `ApiError` (status + the server's message),
 * and a 401 sending the browser to `/login?next=…`.
 */
import { explainRefusal } from './permission-names'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export type QueryValue = string | number | boolean | null | undefined
export type RequestOptions = {
  query?: Record<string, QueryValue | QueryValue[]>
  signal?: AbortSignal
  /** Default true: a 401 goes to the sign-in page. Sign-in forms and the session probe turn it off. */
  redirectOn401?: boolean
  headers?: Record<string, string>
}

type FetchFn = (input: string, init: RequestInit) => Promise<Response>

/** What the client needs from its surroundings; tests replace these. */
export const clientEnv: { fetch: FetchFn; onUnauthorized: () => void } = {
  fetch: (input, init) => fetch(input, init),
  onUnauthorized: () => {
    const here = window.location.pathname + window.location.search
    if (window.location.pathname === '/login') return
    window.location.assign(`/login?next=${encodeURIComponent(here)}`)
  },
}

/** `/projects` → `/api/projects`; a path already under `/api` is kept; the query is appended. */
export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const base = path.startsWith('/api/') || path === '/api' ? path : `/api${path.startsWith('/') ? '' : '/'}${path}`
  if (!query) return base
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) {
    const values = Array.isArray(v) ? v : [v]
    for (const one of values) if (one !== undefined && one !== null && one !== '') qs.append(k, String(one))
  }
  const s = qs.toString()
  return s ? `${base}${base.includes('?') ? '&' : '?'}${s}` : base
}

/** Reads an error message out of a failed response: the envelope's `error`, else the status text. */
async function errorOf(res: Response): Promise<ApiError> {
  let message = ''
  try {
    const body = (await res.json()) as { error?: unknown; message?: unknown }
    if (typeof body.error === 'string') message = body.error
    else if (typeof body.message === 'string') message = body.message
  } catch {
    // not JSON: fall back to the status
  }
  if (!message) message = res.status === 429 ? 'Too many requests: wait a moment and try again' : `Request failed (${res.status} ${res.statusText})`.trim()
  // A refusal names the permission by its key; members read its name.
  return new ApiError(res.status, res.status === 403 ? explainRefusal(message) : message)
}

/** Sends one request and returns the envelope's `data` (or the text of a non-JSON answer). */
export async function request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
  return (await send<T>(method, path, body, opts)).data
}

/** Sends one request: the envelope's `data` and the answer's headers (for what a list carries beside it, e.g. `X-Glitchbox-Fresh-As-Of`). */
async function send<T>(method: string, path: string, body: unknown, opts: RequestOptions): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Glitchbox-Client': 'web', ...opts.headers }
  let payload: BodyInit | undefined
  // FormData (uploads) and Blobs (a CSV import) go as they are, typed by the browser from the value.
  if (body instanceof FormData || body instanceof Blob) payload = body
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  let res: Response
  try {
    res = await clientEnv.fetch(apiUrl(path, opts.query), { method, headers, body: payload, credentials: 'same-origin', signal: opts.signal })
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err
    throw new ApiError(0, 'The server could not be reached: check your connection and try again')
  }
  if (!res.ok) {
    const error = await errorOf(res)
    if (res.status === 401 && opts.redirectOn401 !== false) clientEnv.onUnauthorized()
    throw error
  }
  const type = res.headers.get('content-type') ?? ''
  if (!type.includes('json')) return { data: (await res.text()) as T, headers: res.headers }
  const json = (await res.json()) as { ok?: boolean; data?: T; error?: string }
  if (json && typeof json === 'object' && 'ok' in json) {
    if (json.ok === false) throw new ApiError(res.status, res.status === 403 && json.error ? explainRefusal(json.error) : (json.error ?? 'Request failed'))
    return { data: json.data as T, headers: res.headers }
  }
  return { data: json as T, headers: res.headers }
}

/** `api.get('/projects')`, `api.post('/projects', body)` … each resolves to the envelope's `data`. */
export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
  /** A GET answering `{ data, headers }`. */
  getWithHeaders: <T>(path: string, opts: RequestOptions = {}) => send<T>('GET', path, undefined, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body, opts),
  patch: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, body, opts),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, body, opts),
  delete: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('DELETE', path, body, opts),
}

/** `/projects/${slug}` with the slug encoded: build project paths with this. */
export const projectPath = (slug: string, rest = '') => `/projects/${encodeURIComponent(slug)}${rest}`

/** A human sentence for any thrown value. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message
  if (err instanceof Error) return err.message
  return String(err)
}
