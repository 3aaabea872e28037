import type { AppDeps } from '../../app-deps'
import type { Config } from '../../config/config'
import { cookieValue, secure } from '../../http/browser-session'
import { hmacSha256Hex, randomToken, safeEqual } from '../../lib/ids'
import { type Voter, voteSecret } from './votes.service'

/**
 * The public pages' voter cookie (issue 25): a first-party, HttpOnly cookie holding a random id and
 * the server's signature of it, set by the first public page a browser opens. Votes from that
 * browser (the page forms and the vote script, same origin) count as that id rather than as the
 * client address, so people behind one address (an office, a campus) are separate voters. Forged or
 * mangled values are ignored: the vote falls back to the address. It identifies nothing but the
 * browser's votes and is never shown to the team.
 */
export const VOTER_COOKIE = 'glitchbox_voter'
const MAX_AGE_S = 400 * 24 * 60 * 60

const signature = (secret: string, id: string) => hmacSha256Hex(secret, `voter-cookie:${id}`).slice(0, 32)

/** The voter id of a request's valid voter cookie, or undefined. */
export async function voterCookieId(deps: Pick<AppDeps, 'db'>, now: Date, headers: Record<string, string | undefined>): Promise<string | undefined> {
  const value = cookieValue(headers, VOTER_COOKIE)
  const [id, mac] = value?.split('.') ?? []
  if (!id || !mac || !/^[\w-]{22}$/.test(id)) return undefined
  return safeEqual(mac, signature(await voteSecret(deps, now), id)) ? id : undefined
}

/** A Set-Cookie value giving a browser a new voter id (kept about 13 months, the longest browsers allow). */
export async function newVoterCookie(deps: Pick<AppDeps, 'db'>, now: Date, config: Config): Promise<{ id: string; header: string }> {
  const id = randomToken(16)
  const value = `${id}.${signature(await voteSecret(deps, now), id)}`
  return { id, header: `${VOTER_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${MAX_AGE_S}${secure(config)}` }
}

/** The voter of a vote request (API or page form): the player id it names, its browser's valid voter cookie, and its address. */
export async function voterOf(deps: Pick<AppDeps, 'db' | 'clock'>, request: Request, ip: string, playerId?: string): Promise<Voter> {
  return { playerId, cookieId: await voterCookieId(deps, deps.clock.now(), { cookie: request.headers.get('cookie') ?? undefined }), ip }
}

/** The voter of a public page a browser reads, with the Set-Cookie that gives a browser without a voter cookie its own. */
export async function pageVoterOf(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, request: Request, ip: string): Promise<{ voter: Voter; setCookie?: string }> {
  const voter = await voterOf(deps, request, ip)
  if (voter.cookieId) return { voter }
  const fresh = await newVoterCookie(deps, deps.clock.now(), deps.config)
  return { voter: { ...voter, cookieId: fresh.id }, setCookie: fresh.header }
}
