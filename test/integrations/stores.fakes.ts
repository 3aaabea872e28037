import { compactVerify, decodeProtectedHeader, exportPKCS8, generateKeyPair } from 'jose'
import { type Call, json } from './helpers'

export const PACKAGE = 'com.studio.game'
export const APP_ID = '1234567890'
export const ISSUER = '57246542-96fe-1a63-e053-0824d011072a'
export const KEY_ID = '2X9R4HXF34'
export const TOKEN_URI = 'https://oauth2.googleapis.com/token'
export const CLIENT_EMAIL = 'glitchbox@studio-game.iam.gserviceaccount.com'
const ACCESS_TOKEN = 'ya29.c.fake-access-token'

/** Key pairs made for the test run: the stores' fakes verify signatures with the public halves. */
export async function makeKeys() {
  const rsa = await generateKeyPair('RS256', { extractable: true })
  const otherRsa = await generateKeyPair('RS256', { extractable: true })
  const ec = await generateKeyPair('ES256', { extractable: true })
  const otherEc = await generateKeyPair('ES256', { extractable: true })
  const serviceAccount = async (k: CryptoKey) =>
    JSON.stringify({ type: 'service_account', project_id: 'studio-game', private_key_id: 'abc123', private_key: await exportPKCS8(k), client_email: CLIENT_EMAIL, token_uri: TOKEN_URI })
  return {
    rsaPublic: rsa.publicKey,
    ecPublic: ec.publicKey,
    serviceAccount: await serviceAccount(rsa.privateKey),
    wrongServiceAccount: await serviceAccount(otherRsa.privateKey),
    p8: await exportPKCS8(ec.privateKey),
    wrongP8: await exportPKCS8(otherEc.privateKey),
  }
}
export type Keys = Awaited<ReturnType<typeof makeKeys>>

/** A Play review as the Android Publisher API lists it. */
export function playReview(id: string, stars: number, text: string, at: number, reply?: string) {
  return {
    reviewId: id,
    authorName: `Player ${id}`,
    comments: [
      { userComment: { text, lastModified: { seconds: String(Math.floor(at / 1000)), nanos: 0 }, starRating: stars, reviewerLanguage: 'en', device: 'a52q', appVersionName: '1.4.2' } },
      ...(reply ? [{ developerComment: { text: reply, lastModified: { seconds: String(Math.floor(at / 1000) + 60) } } }] : []),
    ],
  }
}

/** An App Store customer review resource. */
export function appleReview(id: string, stars: number, title: string, body: string, at: string, responseId?: string) {
  return {
    type: 'customerReviews',
    id,
    attributes: { rating: stars, title, body, reviewerNickname: `nick-${id}`, createdDate: at, territory: 'USA' },
    relationships: { response: { data: responseId ? { type: 'customerReviewResponses', id: responseId } : null } },
  }
}

/** What the fakes hold and saw. */
export interface StoreState {
  playReviews: ReturnType<typeof playReview>[]
  applePages: { data: ReturnType<typeof appleReview>[]; included?: unknown[] }[]
  tokenRequests: number
  failures: string[]
}

/** Form fields of a urlencoded body. */
const form = (body: string) => Object.fromEntries(new URLSearchParams(body))

/** Google's token endpoint: verifies the RS256 assertion with the test key's public half and its claims. */
async function googleToken(keys: Keys, state: StoreState, c: Call) {
  const f = form(c.body)
  if (c.headers.get('content-type') !== 'application/x-www-form-urlencoded' || f.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return json(400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' })
  try {
    const { payload, protectedHeader } = await compactVerify(f.assertion ?? '', keys.rsaPublic)
    const claims = JSON.parse(new TextDecoder().decode(payload))
    const ok =
      protectedHeader.alg === 'RS256' &&
      claims.iss === CLIENT_EMAIL &&
      claims.aud === TOKEN_URI &&
      claims.scope === 'https://www.googleapis.com/auth/androidpublisher' &&
      claims.exp - claims.iat === 3600
    if (!ok) {
      state.failures.push(`bad claims ${JSON.stringify(claims)}`)
      return json(400, { error: 'invalid_grant', error_description: 'Invalid JWT: claims' })
    }
  } catch {
    return json(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' })
  }
  state.tokenRequests++
  return json(200, { access_token: ACCESS_TOKEN, expires_in: 3599, token_type: 'Bearer' })
}

/** The Android Publisher API v3 reviews resource: list (newest first, at most 40 a page) and reply. */
function androidPublisher(state: StoreState, c: Call) {
  if (c.headers.get('authorization') !== `Bearer ${ACCESS_TOKEN}`)
    return json(401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } })
  const u = new URL(`http://x${c.path}`)
  const base = `/androidpublisher/v3/applications/${PACKAGE}/reviews`
  if (c.method === 'GET' && u.pathname === base) {
    const start = Number(u.searchParams.get('token') ?? 0)
    const size = Math.min(Number(u.searchParams.get('maxResults') ?? 10), 40)
    // Newest first, as Play lists them.
    const newest = [...state.playReviews].sort((a, b) => Number(b.comments[0]!.userComment!.lastModified.seconds) - Number(a.comments[0]!.userComment!.lastModified.seconds))
    const page = newest.slice(start, start + size)
    const next = start + size < state.playReviews.length ? String(start + size) : undefined
    return json(200, { reviews: page, pageInfo: { totalResults: page.length }, ...(next && { tokenPagination: { nextPageToken: next } }) })
  }
  const m = /^\/androidpublisher\/v3\/applications\/com\.studio\.game\/reviews\/([^/:]+):reply$/.exec(decodeURIComponent(u.pathname))
  if (c.method === 'POST' && m) {
    if (!state.playReviews.some((r) => r.reviewId === m[1])) return json(404, { error: { code: 404, message: 'Review not found.', status: 'NOT_FOUND' } })
    const text = c.json?.replyText
    if (typeof text !== 'string' || text.length > 350) return json(400, { error: { code: 400, message: 'Reply text is too long.', status: 'INVALID_ARGUMENT' } })
    return json(200, { result: { replyText: text, lastEdited: { seconds: '1767614460', nanos: 0 } } })
  }
  return json(404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } })
}

/** App Store Connect: verifies the ES256 token (kid, iss, aud, at most 20 minutes), lists reviews in pages, takes responses. */
async function appStoreConnect(keys: Keys, state: StoreState, c: Call) {
  const unauthorized = json(401, {
    errors: [{ id: 'e1', status: '401', code: 'NOT_AUTHORIZED', title: 'Authentication credentials are missing or invalid.', detail: 'Provide a properly configured and signed bearer token, and make sure that it has not expired.' }],
  })
  const jwt = (c.headers.get('authorization') ?? '').replace(/^Bearer /, '')
  try {
    const header = decodeProtectedHeader(jwt)
    const { payload } = await compactVerify(jwt, keys.ecPublic)
    const claims = JSON.parse(new TextDecoder().decode(payload))
    if (header.alg !== 'ES256' || header.kid !== KEY_ID || claims.iss !== ISSUER || claims.aud !== 'appstoreconnect-v1' || !(claims.exp - claims.iat <= 1200 && claims.exp > claims.iat)) {
      state.failures.push(`bad token ${JSON.stringify({ header, claims })}`)
      return unauthorized
    }
  } catch {
    return unauthorized
  }
  const u = new URL(`http://x${c.path}`)
  if (c.method === 'GET' && u.pathname === `/v1/apps/${APP_ID}/customerReviews`) {
    const i = Number(u.searchParams.get('cursor') ?? 0)
    const page = state.applePages[i] ?? { data: [] }
    const next = i + 1 < state.applePages.length ? `https://api.appstoreconnect.apple.com/v1/apps/${APP_ID}/customerReviews?cursor=${i + 1}&limit=200` : undefined
    return json(200, { data: page.data, included: page.included ?? [], links: { self: 'https://api.appstoreconnect.apple.com/x', ...(next && { next }) }, meta: { paging: { limit: 200 } } })
  }
  if (c.method === 'POST' && u.pathname === '/v1/customerReviewResponses') {
    const d = c.json?.data
    if (d?.type !== 'customerReviewResponses' || typeof d?.attributes?.responseBody !== 'string' || d?.relationships?.review?.data?.type !== 'customerReviews')
      return json(409, { errors: [{ status: '409', code: 'ENTITY_ERROR', title: 'The provided entity is invalid', detail: 'bad body' }] })
    const reviewId = d.relationships.review.data.id
    return json(201, { data: { type: 'customerReviewResponses', id: `resp-${reviewId}`, attributes: { responseBody: d.attributes.responseBody, lastModifiedDate: '2026-01-05T12:01:00-08:00', state: 'PENDING_PUBLISH' } } })
  }
  return json(404, { errors: [{ status: '404', code: 'NOT_FOUND', title: 'The specified resource does not exist', detail: c.path }] })
}

/** One fake answering as Google's token endpoint, the Android Publisher API and App Store Connect, by path. */
export function storeFake(keys: Keys, state: StoreState) {
  return async (c: Call) => {
    if (c.path === '/token' && c.method === 'POST') return googleToken(keys, state, c)
    if (c.path.startsWith('/androidpublisher/')) return androidPublisher(state, c)
    return appStoreConnect(keys, state, c)
  }
}
