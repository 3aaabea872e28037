import { importPKCS8, SignJWT } from 'jose'
import { providerUrl } from '../../../config/config'
import { badRequest } from '../../../http/errors'
import { type Answer, callProvider, requiredString } from './provider-http'
import { type ProviderContext, ProviderError } from './provider.types'
import { type FetchedReview, MAX_PAGES, noStoreActions, noStoreDelivery, type StoreProvider } from './store'

const NAME = 'App Store Connect'
const API = 'https://api.appstoreconnect.apple.com'
/** Apple refuses tokens valid for more than 20 minutes. */
const TOKEN_TTL_S = 15 * 60
/** App Store Connect's limit on a developer response. */
const REPLY_LIMIT = 5970

/** The .p8 key as an ES256 signing key; 400 when it is not one. */
async function signingKey(secret: string): Promise<CryptoKey> {
  try {
    return await importPKCS8(secret.trim(), 'ES256')
  } catch {
    throw badRequest('secret must be the App Store Connect API key: the contents of the .p8 file (-----BEGIN PRIVATE KEY----- …)')
  }
}

/** A fresh ES256 token: kid the key id, iss the issuer id, aud appstoreconnect-v1, valid 15 minutes. */
async function bearer(ctx: ProviderContext): Promise<string> {
  const iat = Math.floor(ctx.deps.clock.now().getTime() / 1000)
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: String(ctx.config.key_id), typ: 'JWT' })
    .setIssuer(String(ctx.config.issuer_id))
    .setAudience('appstoreconnect-v1')
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_TTL_S)
    .sign(await signingKey(ctx.secret))
}

/** Apple's own words from an error answer: each error's title and detail. */
function appleMessage(a: Answer): string {
  const errors = Array.isArray(a.json?.errors) ? (a.json.errors as { title?: string; detail?: string }[]) : []
  const msg = errors.map((e) => [e.title, e.detail].filter(Boolean).join(' ')).filter(Boolean).join('; ') || a.text.trim() || `status ${a.status}`
  return msg.length > 300 ? `${msg.slice(0, 299)}…` : msg
}

/** One App Store Connect API call on `pathAndQuery` (always on the configured base, never a URL from an answer). */
async function api(ctx: ProviderContext, method: string, pathAndQuery: string, body?: unknown) {
  const url = `${providerUrl(ctx.deps.config, 'app_store', API)}${pathAndQuery}`
  const a = await callProvider(ctx, NAME, url, { method, headers: { Authorization: `Bearer ${await bearer(ctx)}` }, ...(body !== undefined && { body: JSON.stringify(body) }) })
  if (a.status >= 300) throw new ProviderError(`${NAME} answered ${a.status}: ${appleMessage(a)}`, a.status, a.text)
  return a.json
}

interface AppleResource {
  type: string
  id: string
  attributes?: Record<string, any>
  relationships?: { response?: { data?: { type: string; id: string } | null } }
}

/** The first page's path: newest first, 200 a page, with the published responses. */
const firstPage = (appId: string) =>
  `/v1/apps/${encodeURIComponent(appId)}/customerReviews?${new URLSearchParams({ sort: '-createdDate', limit: '200', include: 'response' })}`

/** A page's `links.next` as a path on our base; null when there is none. */
function nextPage(links: { next?: string } | undefined): string | null {
  if (!links?.next) return null
  try {
    const u = new URL(links.next)
    return u.pathname + u.search
  } catch {
    return null
  }
}

/** App Store Connect API with an API key (ES256 tokens): customer reviews of the app, and developer responses. */
export const appStore: StoreProvider = {
  key: 'app_store',
  name: 'App Store',
  kind: 'store',
  events: ['reviews', 'review_bugs'],
  defaultEvents: ['reviews'],
  defaultMinPriority: 'low',
  credential: {
    label: 'App Store Connect API key (.p8)',
    help: 'In App Store Connect, open Users and Access, Integrations, App Store Connect API, and generate a key with a role that may reply to reviews (App Manager or Admin); paste the .p8 file, its key id and the issuer id.',
    url: 'https://developer.apple.com/documentation/appstoreconnectapi/creating-api-keys-for-app-store-connect-api',
  },
  config: { issuer_id: 'shown above the keys list', key_id: 'the key id', app_id: 'the app\'s Apple id (digits)' },
  replyLimit: REPLY_LIMIT,
  platform: 'iOS',
  async validate(ctx, config) {
    await signingKey(ctx.secret)
    return {
      issuer_id: requiredString(config, 'issuer_id', { re: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, hint: 'the issuer id (a UUID) shown above the keys list' }),
      key_id: requiredString(config, 'key_id', { re: /^[A-Za-z0-9]{6,20}$/, hint: 'the key id (letters and digits, like 2X9R4HXF34)' }),
      app_id: requiredString(config, 'app_id', { re: /^\d{1,20}$/, hint: 'the app\'s Apple id (digits)' }),
    }
  },
  async test(ctx) {
    await api(ctx, 'GET', `/v1/apps/${encodeURIComponent(String(ctx.config.app_id))}/customerReviews?limit=1`)
    return `App Store Connect accepted the key for app ${ctx.config.app_id}`
  },
  actionsFor: noStoreActions,
  deliver: noStoreDelivery,
  async fetchReviews(ctx, known) {
    const out: FetchedReview[] = []
    let path: string | null = firstPage(String(ctx.config.app_id))
    for (let page = 0; path && page < MAX_PAGES; page++) {
      const a = (await api(ctx, 'GET', path)) as { data?: AppleResource[]; included?: AppleResource[]; links?: { next?: string } } | null
      const responses = new Map((a?.included ?? []).filter((r) => r.type === 'customerReviewResponses').map((r) => [r.id, r]))
      const reviews: FetchedReview[] = []
      for (const r of a?.data ?? []) {
        const at = r.attributes ?? {}
        if (r.type !== 'customerReviews' || !r.id || !at.rating) continue
        const resp = r.relationships?.response?.data ? responses.get(r.relationships.response.data.id) : undefined
        reviews.push({
          storeReviewId: r.id,
          author: at.reviewerNickname ?? null,
          rating: Math.min(5, Math.max(1, Math.round(Number(at.rating)))),
          title: at.title ?? null,
          body: String(at.body ?? '').trim(),
          language: null,
          appVersion: null,
          device: null,
          territory: at.territory ?? null,
          reviewedAt: at.createdDate ? new Date(at.createdDate) : ctx.deps.clock.now(),
          reply: resp?.attributes?.responseBody
            ? { body: resp.attributes.responseBody, at: resp.attributes.lastModifiedDate ? new Date(resp.attributes.lastModifiedDate) : null, externalId: resp.id, state: resp.attributes.state ?? null }
            : null,
        })
      }
      out.push(...reviews)
      path = (await known(reviews)) ? null : nextPage(a?.links)
    }
    return out
  },
  async reply(ctx, review, body) {
    // POST creates the response, or overwrites the review's existing one (Apple allows one per review).
    const a = await api(ctx, 'POST', '/v1/customerReviewResponses', {
      data: { type: 'customerReviewResponses', attributes: { responseBody: body }, relationships: { review: { data: { type: 'customerReviews', id: review.storeReviewId } } } },
    })
    const at = a?.data?.attributes ?? {}
    return { body: at.responseBody ?? body, at: at.lastModifiedDate ? new Date(at.lastModifiedDate) : ctx.deps.clock.now(), externalId: a?.data?.id ?? null, state: at.state ?? null }
  },
}
