import { importPKCS8, SignJWT } from 'jose'
import { providerUrl } from '../../../config/config'
import { badRequest } from '../../../http/errors'
import { callProvider, expectOk, requiredString } from './provider-http'
import { type ProviderContext, ProviderError } from './provider.types'
import { type FetchedReview, MAX_PAGES, noStoreActions, noStoreDelivery, type StoreProvider } from './store'

const NAME = 'Google Play'
const SCOPE = 'https://www.googleapis.com/auth/androidpublisher'
const API = 'https://androidpublisher.googleapis.com'
/** Hosts of Google's OAuth token endpoint a service-account key may name (never a URL of the user's choice). */
const TOKEN_HOSTS = new Set(['oauth2.googleapis.com', 'accounts.google.com', 'www.googleapis.com'])
/** Google's documented cap on a reply ("more than approximately 350 characters will be rejected"). */
const REPLY_LIMIT = 350

interface ServiceAccountKey {
  client_email: string
  private_key: string
  token_uri: string
}

/** The service-account JSON key: parsed, with client_email, private_key (PKCS#8 PEM) and a Google token_uri; 400 naming what is wrong. */
async function keyOf(secret: string): Promise<ServiceAccountKey & { signingKey: CryptoKey }> {
  let key: Record<string, unknown>
  try {
    key = JSON.parse(secret)
  } catch {
    throw badRequest('secret must be the service account\'s JSON key file (it does not parse as JSON)')
  }
  if (!key || typeof key !== 'object') throw badRequest('secret must be the service account\'s JSON key file')
  for (const f of ['client_email', 'private_key', 'token_uri']) {
    if (typeof key[f] !== 'string' || !(key[f] as string).trim()) throw badRequest(`secret: the JSON key has no ${f}`)
  }
  let host: string
  try {
    const u = new URL(key.token_uri as string)
    host = u.protocol === 'https:' ? u.hostname : ''
  } catch {
    host = ''
  }
  if (!TOKEN_HOSTS.has(host)) throw badRequest('secret: token_uri must be Google\'s token endpoint (https://oauth2.googleapis.com/token)')
  let signingKey: CryptoKey
  try {
    signingKey = await importPKCS8(key.private_key as string, 'RS256')
  } catch {
    throw badRequest('secret: private_key is not an RSA private key in PEM form')
  }
  return { client_email: key.client_email as string, private_key: key.private_key as string, token_uri: key.token_uri as string, signingKey }
}

/** Where the token request goes: the key's token_uri, or the same path on `GLITCHBOX_PROVIDER_URL_GOOGLE_OAUTH`. */
function tokenUrl(ctx: Pick<ProviderContext, 'deps'>, tokenUri: string): string {
  const u = new URL(tokenUri)
  return `${providerUrl(ctx.deps.config, 'google_oauth', u.origin)}${u.pathname}`
}

/** Access tokens per key and endpoint, kept until a minute before they expire. */
const tokens = new Map<string, { token: string; expiresAt: number }>()

/**
 * An access token through the OAuth 2.0 JWT-bearer flow: an RS256 assertion signed with the key
 * (iss the service account, the androidpublisher scope, aud the token_uri, valid one hour) is
 * exchanged at the token endpoint; the token is reused until shortly before it expires.
 */
async function accessToken(ctx: ProviderContext): Promise<{ token: string; cacheKey: string }> {
  const key = await keyOf(ctx.secret)
  const url = tokenUrl(ctx, key.token_uri)
  const cacheKey = `${key.client_email}\n${url}\n${key.private_key}`
  const now = ctx.deps.clock.now().getTime()
  const cached = tokens.get(cacheKey)
  if (cached && cached.expiresAt - 60_000 > now) return { token: cached.token, cacheKey }
  const iat = Math.floor(now / 1000)
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(key.client_email)
    .setAudience(key.token_uri)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(key.signingKey)
  const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString()
  const a = expectOk(NAME, await callProvider(ctx, NAME, url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body }))
  const token = a.json?.access_token
  if (typeof token !== 'string' || !token) throw new ProviderError(`${NAME} token endpoint answered without an access token`, a.status, a.text)
  tokens.set(cacheKey, { token, expiresAt: now + Number(a.json.expires_in ?? 3600) * 1000 })
  return { token, cacheKey }
}

/** One Android Publisher API v3 call with the access token; a 401 drops the cached token. */
async function api(ctx: ProviderContext, method: string, path: string, body?: unknown) {
  const { token, cacheKey } = await accessToken(ctx)
  const pkg = encodeURIComponent(String(ctx.config.package_name))
  const url = `${providerUrl(ctx.deps.config, 'google_play', API)}/androidpublisher/v3/applications/${pkg}${path}`
  const a = await callProvider(ctx, NAME, url, { method, headers: { Authorization: `Bearer ${token}` }, ...(body !== undefined && { body: JSON.stringify(body) }) })
  if (a.status === 401) tokens.delete(cacheKey)
  return expectOk(NAME, a).json
}

/** `{seconds, nanos}` as a Date. */
const timeOf = (t: { seconds?: string | number; nanos?: number } | undefined) => (t?.seconds !== undefined ? new Date(Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)) : null)

interface PlayReview {
  reviewId: string
  authorName?: string
  comments?: {
    userComment?: { text?: string; lastModified?: { seconds?: string; nanos?: number }; starRating?: number; reviewerLanguage?: string; device?: string; appVersionName?: string }
    developerComment?: { text?: string; lastModified?: { seconds?: string; nanos?: number } }
  }[]
}

/** A listed review in our words; Play writes a titled review as "title\tbody". */
function fromPlay(r: PlayReview, now: Date): FetchedReview | null {
  const user = r.comments?.find((c) => c.userComment)?.userComment
  const dev = r.comments?.find((c) => c.developerComment)?.developerComment
  if (!r.reviewId || !user || !user.starRating) return null
  const text = user.text ?? ''
  const tab = text.indexOf('\t')
  return {
    storeReviewId: r.reviewId,
    author: r.authorName || null,
    rating: Math.min(5, Math.max(1, Math.round(user.starRating))),
    title: tab > 0 ? text.slice(0, tab).trim() : null,
    body: (tab > 0 ? text.slice(tab + 1) : text).trim(),
    language: user.reviewerLanguage ?? null,
    appVersion: user.appVersionName ?? null,
    device: user.device ?? null,
    territory: null,
    reviewedAt: timeOf(user.lastModified) ?? now,
    reply: dev?.text ? { body: dev.text, at: timeOf(dev.lastModified), externalId: null, state: null } : null,
  }
}

/** Google Play through the Android Publisher API v3 with a service-account key (reviews of the last week, public replies). */
export const googlePlay: StoreProvider = {
  key: 'google_play',
  name: NAME,
  kind: 'store',
  events: ['reviews', 'review_bugs'],
  defaultEvents: ['reviews'],
  defaultMinPriority: 'low',
  credential: {
    label: 'Service-account JSON key',
    help: 'In Google Cloud, create a service account with a JSON key, then invite its email in Play Console under Users and permissions with reply-to-reviews access.',
    url: 'https://developers.google.com/android-publisher/getting_started',
  },
  config: { package_name: 'the app package, e.g. com.studio.game' },
  replyLimit: REPLY_LIMIT,
  platform: 'Android',
  async validate(ctx, config) {
    await keyOf(ctx.secret)
    return { package_name: requiredString(config, 'package_name', { re: /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/, hint: 'an Android package name like com.studio.game' }) }
  },
  async test(ctx) {
    const page = await api(ctx, 'GET', '/reviews?maxResults=1')
    return `Google Play accepted the key for ${ctx.config.package_name}${page?.reviews?.length ? '' : ' (no reviews with text in the last week)'}`
  },
  actionsFor: noStoreActions,
  deliver: noStoreDelivery,
  async fetchReviews(ctx, known) {
    const out: FetchedReview[] = []
    let token: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const qs = new URLSearchParams({ maxResults: '100', ...(token && { token }) })
      const a = await api(ctx, 'GET', `/reviews?${qs}`)
      const reviews = ((a?.reviews ?? []) as PlayReview[]).map((r) => fromPlay(r, ctx.deps.clock.now())).filter((r): r is FetchedReview => r !== null)
      out.push(...reviews)
      token = a?.tokenPagination?.nextPageToken
      if (!token || (await known(reviews))) break
    }
    return out
  },
  async reply(ctx, review, body) {
    const a = await api(ctx, 'POST', `/reviews/${encodeURIComponent(review.storeReviewId)}:reply`, { replyText: body })
    return { body: a?.result?.replyText ?? body, at: timeOf(a?.result?.lastEdited) ?? ctx.deps.clock.now(), externalId: null, state: null }
  },
}
