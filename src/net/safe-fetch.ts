import { lookup } from 'node:dns/promises'
import { isPublicIp, parseIp } from './ip-ranges'

/** The target may not be called: bad scheme, private or reserved address, or unresolvable host. */
export class UnsafeTargetError extends Error {}

export interface TargetPolicy {
  /** `GLITCHBOX_ALLOW_PRIVATE_TARGETS`: skip the address checks (the scheme is still checked). */
  allowPrivate: boolean
}

/** Host names that resolve to metadata or loopback services whatever DNS says. */
const BLOCKED_NAMES = /^(localhost|metadata\.google\.internal|metadata)$|\.localhost$/

/** Resolves `host` with the system resolver, giving up when `signal` aborts. */
async function resolve(host: string, signal?: AbortSignal): Promise<string[]> {
  const pending = lookup(host, { all: true, verbatim: true }).then((rows) => rows.map((r) => r.address))
  if (!signal) return pending
  signal.throwIfAborted()
  return Promise.race([
    pending,
    new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
  ])
}

/**
 * Parses `raw` with the WHATWG URL parser (which normalises decimal, hex, octal and short IPv4
 * forms to dotted quads) and refuses it unless it is http(s) and every address its host resolves
 * to is public. Throws UnsafeTargetError; returns the parsed URL.
 */
export async function assertPublicUrl(raw: string, policy: TargetPolicy, signal?: AbortSignal): Promise<URL> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UnsafeTargetError('url must be a valid http(s) URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeTargetError('url must use http or https')
  if (policy.allowPrivate) return url
  const host = url.hostname.replace(/\.$/, '').toLowerCase()
  if (BLOCKED_NAMES.test(host)) throw new UnsafeTargetError(`url host ${host} is not allowed`)
  const literal = parseIp(host)
  let addresses: string[]
  if (literal) addresses = [host]
  else {
    try {
      addresses = await resolve(host, signal)
    } catch (err) {
      if (signal?.aborted) throw err
      throw new UnsafeTargetError(`url host ${host} could not be resolved`)
    }
  }
  if (addresses.length === 0) throw new UnsafeTargetError(`url host ${host} could not be resolved`)
  for (const a of addresses) {
    const ip = parseIp(a)
    if (!ip || !isPublicIp(ip)) throw new UnsafeTargetError(`url resolves to a private or reserved address (${a}), which is not allowed`)
  }
  return url
}

export interface SafeFetchOptions extends TargetPolicy {
  /** Whole call, resolution included. */
  timeoutMs: number
  /** Aborts the call early (e.g. the job's own timeout). */
  signal?: AbortSignal
}

/**
 * fetch for user-supplied URLs (webhooks, integrations): checks the target again at call time
 * (DNS may have changed since creation), never follows redirects (a 3xx is the answer) and gives
 * up after `timeoutMs`.
 */
export async function safeFetch(raw: string, init: RequestInit, opts: SafeFetchOptions): Promise<Response> {
  const timeout = AbortSignal.timeout(opts.timeoutMs)
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout
  const url = await assertPublicUrl(raw, opts, signal)
  return fetch(url, { ...init, redirect: 'manual', signal })
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
