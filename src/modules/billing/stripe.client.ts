import { type Config, providerUrl } from '../../config/config'
import { AppError, badGateway, badRequest } from '../../http/errors'

/** The Stripe API version every request pins, so Stripe's shapes cannot change under us. */
export const STRIPE_VERSION = '2024-06-20'
const TIMEOUT_MS = 10_000

export type StripeParams = Record<string, unknown>

/**
 * Stripe's form encoding: nested objects and arrays become bracketed keys
 * (`line_items[0][price]=…`, `metadata[account_id]=…`); null and undefined are left out.
 */
export function formEncode(params: StripeParams): string {
  const pairs: string[] = []
  const walk = (key: string, value: unknown) => {
    if (value === undefined || value === null) return
    if (Array.isArray(value)) value.forEach((v, i) => walk(`${key}[${i}]`, v))
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(`${key}[${k}]`, v)
    else pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
  }
  for (const [k, v] of Object.entries(params)) walk(k, v)
  return pairs.join('&')
}

/** Thrown for an answer of Stripe's with an error status; `code` is Stripe's error code when it gives one. */
export class StripeError extends AppError {
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly code: string | undefined,
  ) {
    super(502, message)
  }
}

export interface StripeClient {
  /** Calls Stripe: GET/DELETE send `params` as the query string, POST as a form body. */
  request<T = any>(method: 'GET' | 'POST' | 'DELETE', path: string, params?: StripeParams, signal?: AbortSignal): Promise<T>
}

/** The Stripe client from config, or null when no secret key is set. */
export function stripeClient(config: Config): StripeClient | null {
  const key = config.stripeSecretKey
  if (!key) return null
  const base = providerUrl(config, 'stripe', 'https://api.stripe.com')
  return {
    async request(method, path, params = {}, signal) {
      const form = formEncode(params)
      const url = `${base}/v1/${path}${method !== 'POST' && form ? `?${form}` : ''}`
      let res: Response
      try {
        res = await fetch(url, {
          method,
          headers: {
            Authorization: `Bearer ${key}`,
            'Stripe-Version': STRIPE_VERSION,
            'User-Agent': `Glitchbox/${config.version}`,
            ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
          },
          body: method === 'POST' ? form : undefined,
          signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS),
        })
      } catch {
        throw badGateway('Stripe could not be reached')
      }
      const body = (await res.json().catch(() => null)) as { error?: { message?: string; code?: string } } | null
      if (!res.ok) throw new StripeError(`Stripe: ${body?.error?.message ?? `HTTP ${res.status}`}`, res.status, body?.error?.code)
      return body as never
    },
  }
}

/** The Stripe client, or 400 "billing is not configured". */
export function requireStripe(config: Config): StripeClient {
  const client = stripeClient(config)
  if (!client) throw badRequest('billing is not configured')
  return client
}
