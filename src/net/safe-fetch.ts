import { lookup } from 'node:dns/promises'
import { isPublicIp, parseIp } from './ip-ranges'

/** The target may not be called: bad scheme, private or reserved address, or unresolvable host. */
export class UnsafeTargetError extends Error {}

/** Resolves a host name to its addresses, giving up when `signal` aborts. */
export type Resolver = (host: string, signal?: AbortSignal) => Promise<string[]>

export interface TargetPolicy {
  /** `GLITCHBOX_ALLOW_PRIVATE_TARGETS`: skip the address checks (the scheme is still checked). */
  allowPrivate: boolean
  /** Name resolution: the system resolver unless given (tests pass their own). */
  resolve?: Resolver
}

/** How an operator lets the server reach its own network (a chat server or tracker on the LAN). */
const ALLOW_PRIVATE_HINT = 'to allow private targets, set GLITCHBOX_ALLOW_PRIVATE_TARGETS=true and restart Glitchbox'

/** Host names that resolve to metadata or loopback services whatever DNS says. */
const BLOCKED_NAMES = /^(localhost|metadata\.google\.internal|metadata)$|\.localhost$/

/** The system resolver (getaddrinfo, as fetch would use), in the order it answers. */
const systemResolve: Resolver = async (host, signal) => {
  const pending = lookup(host, { all: true, verbatim: true }).then((rows) => rows.map((r) => r.address))
  if (!signal) return pending
  signal.throwIfAborted()
  return Promise.race([
    pending,
    new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
  ])
}

/** Parses `raw` with the WHATWG URL parser (which normalises decimal, hex, octal and short IPv4 forms to dotted quads); http(s) only. */
function parseTarget(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UnsafeTargetError('url must be a valid http(s) URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeTargetError('url must use http or https')
  return url
}

/**
 * The addresses `url`'s host stands for (the literal itself, or what the resolver answers), each
 * checked unless private targets are allowed. Throws UnsafeTargetError.
 */
async function checkedAddresses(url: URL, policy: TargetPolicy, signal?: AbortSignal): Promise<string[]> {
  const host = url.hostname.replace(/\.$/, '').toLowerCase()
  if (!policy.allowPrivate && BLOCKED_NAMES.test(host)) throw new UnsafeTargetError(`url host ${host} is not allowed; ${ALLOW_PRIVATE_HINT}`)
  let addresses: string[]
  if (parseIp(host)) addresses = [host.replace(/^\[|\]$/g, '')]
  else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host, signal)
    } catch (err) {
      if (signal?.aborted) throw err
      throw new UnsafeTargetError(`url host ${host} could not be resolved`)
    }
  }
  if (addresses.length === 0) throw new UnsafeTargetError(`url host ${host} could not be resolved`)
  if (policy.allowPrivate) return addresses
  for (const a of addresses) {
    const ip = parseIp(a)
    if (!ip || !isPublicIp(ip)) throw new UnsafeTargetError(`url resolves to a private or reserved address (${a}), which is not allowed; ${ALLOW_PRIVATE_HINT}`)
  }
  return addresses
}

/**
 * Refuses `raw` unless it is http(s) and every address its host resolves to is public (nothing is
 * resolved when private targets are allowed). Throws UnsafeTargetError; returns the parsed URL.
 */
export async function assertPublicUrl(raw: string, policy: TargetPolicy, signal?: AbortSignal): Promise<URL> {
  const url = parseTarget(raw)
  if (!policy.allowPrivate) await checkedAddresses(url, policy, signal)
  return url
}

/**
 * How to call `url` at `address` and nowhere else: the URL with the address as its host, the Host
 * header of the original, and for https the original name as TLS server name (SNI, and the name the
 * certificate is verified against). Null when the address is not one a URL can hold (a zone id).
 */
export function pinnedTarget(url: URL, address: string): { url: URL; host: string; serverName: string | null } | null {
  const ip = address.includes(':') ? `[${address}]` : address
  const pinned = new URL(url)
  pinned.hostname = ip
  // The URL setter ignores a host it cannot parse, which would leave the name to be resolved again.
  if (pinned.hostname !== new URL(`http://${ip}/`).hostname) return null
  const isName = !parseIp(url.hostname)
  return { url: pinned, host: url.host, serverName: url.protocol === 'https:' && isName ? url.hostname.replace(/\.$/, '') : null }
}

export interface SafeFetchOptions extends TargetPolicy {
  /** Whole call, resolution included. */
  timeoutMs: number
  /** Aborts the call early (e.g. the job's own timeout). */
  signal?: AbortSignal
}

/**
 * fetch for user-supplied URLs (webhooks, integrations): resolves the host once, checks every address
 * (DNS may have changed since creation), then connects to one of those very addresses, so a
 * name that answers differently the second time (DNS rebinding) cannot lead elsewhere. The Host
 * header and, for https, SNI and certificate verification keep the URL's name. Never follows
 * redirects (a 3xx is the answer) and gives up after `timeoutMs`.
 */
export async function safeFetch(raw: string, init: BunFetchRequestInit, opts: SafeFetchOptions): Promise<Response> {
  const timeout = AbortSignal.timeout(opts.timeoutMs)
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout
  const url = parseTarget(raw)
  const addresses = await checkedAddresses(url, opts, signal)
  // IPv4 first: many servers (default Docker networks among them) have no IPv6 route, and a pinned
  // address gets none of fetch's own fallback between families.
  const address = addresses.find((a) => !a.includes(':')) ?? addresses[0]!
  const target = pinnedTarget(url, address)
  if (!target) throw new UnsafeTargetError(`url host ${url.hostname} resolves to an address that cannot be called (${address})`)
  const headers = new Headers(init.headers)
  headers.set('host', target.host)
  const tls = target.serverName ? { ...init.tls, serverName: target.serverName } : init.tls
  return fetch(target.url, { ...init, headers, tls, redirect: 'manual', signal })
}

/** The first `max` characters of a response body, reading no more than needed. */
export async function readSnippet(res: Response, max = 500): Promise<string> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    while (text.length < max) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    void reader.cancel().catch(() => {})
  }
  return text.slice(0, max)
}

/** A short, log-safe reason why an outgoing call failed; `timeoutMs` is the limit the call had. */
export function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof UnsafeTargetError) return err.message
  const e = err as { name?: string; code?: string; message?: string }
  if (e?.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`
  if (e?.name === 'AbortError') return 'aborted'
  return [e?.code, e?.message].filter(Boolean).join(': ') || String(err)
}
