import { createRemoteJWKSet, decodeJwt, errors, type JWTPayload, jwtVerify } from 'jose'
import type { AppDeps } from '../../app-deps'
import { type Config, providerUrl } from '../../config/config'
import { AppError, badGateway, unauthorized } from '../../http/errors'

export type IdentityProvider = 'google' | 'apple'

/** What a verified Google or Apple ID token tells us about the person signing in. */
export interface IdentityClaims {
  provider: IdentityProvider
  sub: string
  email: string | null
  emailVerified: boolean
  name: string | null
}

interface ProviderSpec {
  issuers: string[]
  jwksKey: string
  jwksDefault: string
  audience: (config: Config) => string | undefined
}

const PROVIDERS: Record<IdentityProvider, ProviderSpec> = {
  google: {
    issuers: ['accounts.google.com', 'https://accounts.google.com'],
    jwksKey: 'google_jwks',
    jwksDefault: 'https://www.googleapis.com/oauth2/v3/certs',
    audience: (c) => c.googleClientId,
  },
  apple: {
    issuers: ['https://appleid.apple.com'],
    jwksKey: 'apple_jwks',
    jwksDefault: 'https://appleid.apple.com/auth/keys',
    audience: (c) => c.appleClientId,
  },
}

export const INVALID_IDENTITY_TOKEN = 'invalid identity token'

// Failures of the provider's key endpoint are ours to report as 502, not the caller's token being bad.
const UNREACHABLE_CODES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC'])

/** Apple sends `email_verified` as the string "true"; Google as a boolean. */
const truthy = (v: unknown) => v === true || v === 'true'

function providerOf(token: string): IdentityProvider {
  let payload: JWTPayload
  try {
    payload = decodeJwt(token)
  } catch {
    throw unauthorized(INVALID_IDENTITY_TOKEN)
  }
  const found = (Object.keys(PROVIDERS) as IdentityProvider[]).find((p) => PROVIDERS[p].issuers.includes(String(payload.iss)))
  if (!found) throw unauthorized(INVALID_IDENTITY_TOKEN)
  return found
}

/**
 * Verifies Google and Apple ID tokens against the provider's JWKS: RS256 signature, issuer,
 * audience (the configured client ids, comma-separated for several apps) and expiry by the app clock.
 * The unverified payload is only read to pick the provider. Key sets are fetched lazily and cached.
 */
export function createIdentityVerifier(deps: Pick<AppDeps, 'config' | 'clock'>) {
  const { config, clock } = deps
  const keySets = new Map<IdentityProvider, ReturnType<typeof createRemoteJWKSet>>()
  const keySet = (p: IdentityProvider) => {
    let set = keySets.get(p)
    if (!set) {
      const url = new URL(providerUrl(config, PROVIDERS[p].jwksKey, PROVIDERS[p].jwksDefault))
      set = createRemoteJWKSet(url, { headers: { 'User-Agent': `Glitchbox/${config.version}` }, timeoutDuration: 5000 })
      keySets.set(p, set)
    }
    return set
  }

  return async function verifyIdentityToken(token: string): Promise<IdentityClaims> {
    if (!config.googleClientId && !config.appleClientId) throw unauthorized('sign-in with Google or Apple is not configured on this server')
    const provider = providerOf(token)
    const spec = PROVIDERS[provider]
    const audience = spec.audience(config)?.split(',').map((a) => a.trim()).filter(Boolean)
    if (!audience?.length) throw unauthorized(`sign-in with ${provider === 'google' ? 'Google' : 'Apple'} is not configured on this server`)
    try {
      const { payload } = await jwtVerify(token, keySet(provider), {
        issuer: spec.issuers,
        audience,
        algorithms: ['RS256'],
        currentDate: clock.now(),
        requiredClaims: ['sub', 'exp'],
      })
      const email = typeof payload.email === 'string' && payload.email.includes('@') ? payload.email.trim().toLowerCase() : null
      const name = typeof payload.name === 'string' && payload.name.trim() ? payload.name.trim().slice(0, 100) : null
      return { provider, sub: payload.sub!, email, emailVerified: email !== null && truthy(payload.email_verified), name }
    } catch (err) {
      if (err instanceof AppError) throw err
      if (!(err instanceof errors.JOSEError) || UNREACHABLE_CODES.has(err.code)) {
        throw badGateway(`could not load the ${provider === 'google' ? 'Google' : 'Apple'} sign-in keys`)
      }
      throw unauthorized(INVALID_IDENTITY_TOKEN)
    }
  }
}

export type IdentityVerifier = ReturnType<typeof createIdentityVerifier>
