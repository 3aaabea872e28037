import { providerUrl } from '../../../config/config'
import { badRequest } from '../../../http/errors'
import { assertPublicUrl, describeFailure, safeFetch, UnsafeTargetError } from '../../../net/safe-fetch'
import { type ProviderContext, ProviderError } from './provider.types'

/** Spec 4.7: a call that has not answered within 10 s has failed (and is retried). */
export const PROVIDER_TIMEOUT_MS = 10_000

/** A provider's answer: status, body text (first 500 characters kept for the deliveries list) and parsed JSON when it is JSON. */
export interface Answer {
  status: number
  text: string
  json: any
}

/**
 * Calls a provider. `userUrl`: the URL came from a user (a chat webhook URL) and goes through the SSRF
 * guard; otherwise it is built on the provider's base URL (`GLITCHBOX_PROVIDER_URL_<KEY>` or its public
 * default), which the operator controls. Never follows redirects; gives up after 10 s.
 */
export async function callProvider(ctx: ProviderContext, name: string, url: string, init: { method: string; headers?: Record<string, string>; body?: string }, opts: { userUrl?: boolean } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'User-Agent': `Glitchbox/${ctx.deps.config.version}`, Accept: 'application/json', ...init.headers }
  if (init.body !== undefined) headers['Content-Type'] ??= 'application/json'
  let res: Response
  try {
    if (opts.userUrl) {
      res = await safeFetch(url, { ...init, headers }, { allowPrivate: ctx.deps.config.allowPrivateTargets, timeoutMs: PROVIDER_TIMEOUT_MS, signal: ctx.signal })
    } else {
      const timeout = AbortSignal.timeout(PROVIDER_TIMEOUT_MS)
      res = await fetch(url, { ...init, headers, redirect: 'manual', signal: ctx.signal ? AbortSignal.any([timeout, ctx.signal]) : timeout })
    }
  } catch (err) {
    throw new ProviderError(`${name} could not be reached (${describeFailure(err, PROVIDER_TIMEOUT_MS)})`)
  }
  const text = await res.text().catch(() => '')
  let json: unknown = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    json = null
  }
  return { status: res.status, text: text.slice(0, 500), json }
}

/** The provider's own words from an error answer: its message, detail or errors, else the body's start. */
export function answerMessage(a: Answer): string {
  const j = a.json
  const parts: string[] = []
  if (j && typeof j === 'object') {
    for (const k of ['message', 'detail', 'error', 'error_description']) {
      const v = j[k]
      if (typeof v === 'string' && v) parts.push(v)
      else if (v && typeof v === 'object' && typeof v.message === 'string') parts.push(v.message)
    }
    if (Array.isArray(j.errors)) parts.push(...j.errors.slice(0, 3).map((e: unknown) => (typeof e === 'string' ? e : ((e as { message?: string })?.message ?? JSON.stringify(e)))))
  }
  const msg = parts.join('; ') || a.text.trim() || `status ${a.status}`
  return msg.length > 300 ? `${msg.slice(0, 299)}…` : msg
}

/** Throws ProviderError carrying the provider's words unless it answered below 300. */
export function expectOk(name: string, a: Answer): Answer {
  if (a.status >= 300) throw new ProviderError(`${name} answered ${a.status}: ${answerMessage(a)}`, a.status, a.text)
  return a
}

/** Base URL of a provider for a region: the operator's override (for every region) or the region's public URL. */
export function regionBase(ctx: Pick<ProviderContext, 'deps'>, key: string, urls: Record<string, string>, region: unknown): string {
  return providerUrl(ctx.deps.config, key, urls[String(region)] ?? Object.values(urls)[0]!)
}

/** `config[field]` as one of `allowed` (the first when absent); 400 naming the field otherwise. */
export function oneOf(config: Record<string, unknown>, field: string, allowed: readonly string[]): string {
  const v = config[field] ?? allowed[0]
  if (typeof v !== 'string' || !allowed.includes(v)) throw badRequest(`config.${field} must be ${allowed.join(' or ')}`)
  return v
}

/** `config[field]` as a non-empty string; 400 naming the field otherwise. */
export function requiredString(config: Record<string, unknown>, field: string, pattern?: { re: RegExp; hint: string }): string {
  const v = config[field]
  if (typeof v !== 'string' || !v.trim()) throw badRequest(`config.${field} is required`)
  if (pattern && !pattern.re.test(v.trim())) throw badRequest(`config.${field} must be ${pattern.hint}`)
  return v.trim()
}

/** A user-supplied webhook URL the server may call (SSRF guard); 400 naming the secret otherwise. */
export async function checkedWebhookUrl(ctx: Pick<ProviderContext, 'deps'>, raw: string): Promise<URL> {
  try {
    return await assertPublicUrl(raw.trim(), { allowPrivate: ctx.deps.config.allowPrivateTargets })
  } catch (err) {
    if (err instanceof UnsafeTargetError) throw badRequest(`secret: ${err.message}`)
    throw err
  }
}
