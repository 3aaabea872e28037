import type { Config } from '../config/config'
import { DAY } from '../lib/clock'
import { forbidden } from './errors'

/**
 * Browser sessions (CONTRACT.md, "Web"): the web app signs in through the ordinary login and signup
 * routes with `X-Glitchbox-Client: web` and gets its session token as an HttpOnly cookie instead of
 * keeping it in script-readable storage. The cookie authenticates requests without `Authorization`.
 *
 * Cross-site request forgery: SameSite=Lax already keeps the cookie off cross-site POSTs in current
 * browsers; on top of that a cookie-authenticated request that changes state must name this server
 * in `Origin`. "This server" is either the origin of GLITCHBOX_PUBLIC_URL or the host the request
 * was sent to (its `Host` header, any scheme): the second lets the dashboard work when it is opened
 * by another name than the public URL (http://127.0.0.1:8080 against the default
 * http://localhost:8080, or a TLS proxy in front), and is safe because a page on another site
 * cannot send a request whose Host is ours with its own Origin equal to our host, and a page on a
 * rebound name (DNS rebinding) never receives our cookie.
 */

export const SESSION_COOKIE = 'glitchbox_session'
export const WEB_CLIENT_HEADER = 'x-glitchbox-client'
const COOKIE_MAX_AGE_S = (30 * DAY) / 1000
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

type Headers = Record<string, string | undefined>

/** True when the request comes from the web app and wants its session as a cookie. */
export const wantsSessionCookie = (headers: Headers) => headers[WEB_CLIENT_HEADER]?.trim().toLowerCase() === 'web'

/** The value of the cookie `name` in a request's Cookie header, or null (absent, empty or mangled). */
export function cookieValue(headers: Headers, name: string): string | null {
  const cookie = headers.cookie
  if (!cookie) return null
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue
    const value = part.slice(eq + 1).trim()
    if (value === '') return null
    try {
      return decodeURIComponent(value)
    } catch {
      // A mangled cookie authenticates nobody (401), rather than failing the request.
      return null
    }
  }
  return null
}

/** The value of the session cookie, or null. */
export const sessionCookieOf = (headers: Headers): string | null => cookieValue(headers, SESSION_COOKIE)

/** `; Secure` when the server is reached over https, for every cookie it sets. */
export const secure = (config: Config) => (config.publicUrl.startsWith('https:') ? '; Secure' : '')

/** The Set-Cookie value that stores `token` for 30 days. */
export const sessionCookie = (config: Config, token: string) =>
  `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${COOKIE_MAX_AGE_S}${secure(config)}`

/** The Set-Cookie value that removes the session cookie. */
export const clearedSessionCookie = (config: Config) =>
  `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT${secure(config)}`

/** Whether `origin` names this server (see the comment at the top of this file). */
export function isOwnOrigin(config: Config, origin: string, host: string | undefined): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.origin === new URL(config.publicUrl).origin) return true
  return (url.protocol === 'http:' || url.protocol === 'https:') && !!host && url.host === host.toLowerCase()
}

/** Throws 403 when a cookie-authenticated request that changes state does not come from this server's pages. */
export function checkCookieOrigin(config: Config, method: string, headers: Headers): void {
  if (!STATE_CHANGING.has(method.toUpperCase())) return
  const origin = headers.origin
  if (!origin || !isOwnOrigin(config, origin, headers.host)) {
    throw forbidden('cross-origin request refused: a browser session may only change data from this server’s own pages')
  }
}
