/**
 * A small client-side router over the History API: patterns with `:params`, the query string as state,
 * `navigate()`, back/forward, and plain `<a href>` links intercepted when they stay inside the dashboard.
 */
import { signal, computed } from '@preact/signals'
import type { ComponentChildren, HTMLAttributes, JSX } from 'preact'
import { useEffect } from 'preact/hooks'
import { isServerPath } from './server-paths'

export type Params = Record<string, string>
export type Query = Record<string, string>
export type QueryPatch = Record<string, string | number | boolean | null | undefined>

const here = () => (typeof window === 'undefined' ? { pathname: '/', search: '' } : window.location)

/** The current location: path and parsed query. Read it in components; they re-render when it changes. */
export const currentPath = signal(here().pathname)
export const currentSearch = signal(here().search)
export const currentQuery = computed<Query>(() => parseQuery(currentSearch.value))

/** Matches `/projects/:slug/reports/:number` against a path; params are URI-decoded. Trailing slashes are ignored. */
export function matchPath(pattern: string, path: string): Params | null {
  const split = (s: string) => s.split('/').filter(Boolean)
  const want = split(pattern)
  const got = split(path)
  const rest = want[want.length - 1] === '*'
  if (rest ? got.length < want.length - 1 : got.length !== want.length) return null
  const params: Params = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!
    if (w === '*') {
      params['*'] = got.slice(i).map(safeDecode).join('/')
      break
    }
    const g = got[i]!
    if (w.startsWith(':')) params[w.slice(1)] = safeDecode(g)
    else if (w !== g) return null
  }
  return params
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** `?a=1&b=x` → `{a: '1', b: 'x'}` (the last value wins for repeated keys). */
export function parseQuery(search: string): Query {
  const out: Query = {}
  new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).forEach((v, k) => {
    out[k] = v
  })
  return out
}

/** A path with a query string; empty, null and undefined values are left out, keys keep their order. */
export function buildUrl(path: string, query: QueryPatch = {}): string {
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '' || v === false) continue
    qs.set(k, String(v))
  }
  const s = qs.toString()
  return s ? `${path}?${s}` : path
}

/** Whether a link target should be handled by the router rather than a full page load. */
export function isAppHref(href: string, origin: string): boolean {
  let url: URL
  try {
    url = new URL(href, origin)
  } catch {
    return false
  }
  return url.origin === origin && !isServerPath(url.pathname)
}

function sync() {
  currentPath.value = window.location.pathname
  currentSearch.value = window.location.search
}

/** Goes to a dashboard URL (pushes a history entry unless `replace`); other URLs load normally. */
export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (!isAppHref(to, window.location.origin)) {
    window.location.assign(to)
    return
  }
  const url = new URL(to, window.location.origin)
  const target = url.pathname + url.search + url.hash
  if (target === window.location.pathname + window.location.search + window.location.hash) return
  if (opts.replace) window.history.replaceState(null, '', target)
  else window.history.pushState(null, '', target)
  const pathChanged = url.pathname !== currentPath.value
  sync()
  if (pathChanged && !url.hash) window.scrollTo(0, 0)
}

/** Changes some query keys of the current URL (null/undefined/'' removes a key); `replace` for typing-as-you-go. */
export function setQuery(patch: QueryPatch, opts: { replace?: boolean } = {}): void {
  navigate(buildUrl(currentPath.value, { ...currentQuery.value, ...patch }), opts)
}

let listening = false
/** Starts following back/forward and intercepting same-app link clicks. Called once by `<Router>`. */
export function startRouter(): void {
  if (listening || typeof window === 'undefined') return
  listening = true
  window.addEventListener('popstate', sync)
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    const a = (e.target as Element | null)?.closest?.('a')
    if (!a || !a.hasAttribute('href') || a.target || a.hasAttribute('download') || a.dataset.native !== undefined) return
    const href = a.getAttribute('href')!
    if (href.startsWith('#') || !isAppHref(a.href, window.location.origin)) return
    e.preventDefault()
    navigate(a.href)
  })
}

export type RouteProps = { params: Params; query: Query }
export type Route = {
  /** Pattern such as `/projects/:slug/settings/:tab`. */
  path: string
  component: (props: RouteProps) => JSX.Element | null
  /** Pages reachable signed out (sign in, sign up, password reset). Default: needs a session. */
  public?: boolean
  /** Renders without the dashboard shell (auth pages). */
  bare?: boolean
  /** Document title; a function gets the params. */
  title?: string | ((params: Params) => string)
}

/** The first route matching a path, with its params. */
export function resolve(routes: Route[], path: string): { route: Route; params: Params } | null {
  for (const route of routes) {
    const params = matchPath(route.path, path)
    if (params) return { route, params }
  }
  return null
}

/** A link: a real `<a href>`; the router's click handler keeps it inside the app. Marks the current page. */
export function Link(props: HTMLAttributes<HTMLAnchorElement> & { href: string; exact?: boolean; children?: ComponentChildren }) {
  const { href, exact, ...rest } = props
  const path = href.split('?')[0]!
  const active = exact || path === '/' ? currentPath.value === path : currentPath.value === path || currentPath.value.startsWith(path + '/')
  return <a {...(rest as Record<string, unknown>)} href={href} aria-current={active ? 'page' : undefined} />
}

/** Follows the location; call inside components that must start the router. */
export function useRouter(): void {
  useEffect(() => startRouter(), [])
}
