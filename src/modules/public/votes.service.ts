import type { SQL } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import { forbidden, notFound } from '../../http/errors'
import { DAY } from '../../lib/clock'
import { hmacSha256Hex } from '../../lib/ids'
import { clientGroupOf } from '../../net/ip-ranges'
import { settingsOf } from '../settings/settings.service'
import { createPublicRepository, onRoadmap } from './public.repository'
import { enabledTracker } from './public.service'
import { publicReportsOf } from './public.repository'
import { serverSecret } from './server-secrets'
import { enabledRoadmap } from './roadmap.service'

type Deps = Pick<AppDeps, 'db' | 'clock'>

/** The server's vote-hashing key (also signs voter cookies). */
export const voteSecret = (deps: Pick<AppDeps, 'db'>, now: Date): Promise<string> => serverSecret(deps, 'vote_voter_key', now)

/**
 * Who votes, strongest identity first: a player id the client names, else the voter cookie of the
 * public pages (voter-cookie.ts: one per browser, so an office behind one address is many voters),
 * else the client address.
 */
export interface Voter {
  playerId?: string
  /** The id inside a valid `glitchbox_voter` cookie. */
  cookieId?: string
  ip: string
}

/** The stored identity of a voter: an HMAC of the player id, the cookie id or the client IP. */
export function voterKey(secret: string, v: Voter): string {
  return hmacSha256Hex(secret, v.playerId ? `player:${v.playerId}` : v.cookieId ? `cookie:${v.cookieId}` : `ip:${v.ip}`)
}

/**
 * Player ids are the client's word, so one address could invent any number of voters: it adds at
 * most this many votes with player ids to one report in 24 hours (a household or a LAN party still
 * votes; a script does not). Further ones answer like a repeat.
 */
export const PLAYER_VOTES_PER_ADDRESS_PER_DAY = 3

/**
 * Voter cookies are signed, so a script must fetch a page for each new one; an office or a campus
 * behind one address is many browsers, so their cap is larger. Counted apart from player-id votes.
 */
export const COOKIE_VOTES_PER_ADDRESS_PER_DAY = 20

/**
 * The keyed hash of the address a player or cookie vote came from (an IPv6 client's /64, see
 * clientGroupOf). Cookie votes hash under their own prefix, so the two caps count apart.
 */
function addressKey(secret: string, ip: string, kind: 'player' | 'cookie'): string {
  const address = clientGroupOf(ip)
  return hmacSha256Hex(secret, kind === 'player' ? address : `cookie-${address}`)
}

export interface VoteResult {
  upvotes: number
  is_new: boolean
}

/**
 * Records one vote per voter on the report `reportNumber` among `shown` (the reports the page that
 * took the vote shows) and bumps its count in the same transaction; a repeat changes nothing.
 */
async function castVote(deps: Deps, shown: SQL, reportNumber: number, voter: Voter): Promise<VoteResult> {
  const now = deps.clock.now()
  const secret = await voteSecret(deps, now)
  const key = voterKey(secret, voter)
  const capped = voter.playerId ? { kind: 'player' as const, cap: PLAYER_VOTES_PER_ADDRESS_PER_DAY } : voter.cookieId ? { kind: 'cookie' as const, cap: COOKIE_VOTES_PER_ADDRESS_PER_DAY } : null
  const address = capped ? addressKey(secret, voter.ip, capped.kind) : null
  const repo = createPublicRepository({ db: deps.db })
  return deps.db.write(async () => {
    const report = await repo.voteTarget(shown, reportNumber)
    if (!report) throw notFound('bug not found')
    const repeat = { upvotes: report.upvotes, is_new: false }
    if (address && capped && (await repo.votesFromAddress(report.seq, address, new Date(now.getTime() - DAY))) >= capped.cap) return repeat
    const upvotes = await repo.addVote({ reportSeq: report.seq, voterKey: key, addressKey: address, createdAt: now })
    return upvotes === undefined ? repeat : { upvotes, is_new: true }
  })
}

/** A vote from the public tracker (or the report form's suggestions) on a report it shows; 404 unless it is enabled, 403 unless it allows upvotes. */
export async function voteOnTracker(deps: Deps, slug: string, reportNumber: number, voter: Voter): Promise<VoteResult> {
  const { project, settings } = await enabledTracker(deps, slug)
  if (!settings.allow_upvotes) throw forbidden('upvotes are turned off on this tracker')
  return castVote(deps, publicReportsOf(project.id, settings), reportNumber, voter)
}

/** A vote from the public roadmap on a report it shows; 404 unless it is enabled, 403 unless it shows upvotes. */
export async function voteOnRoadmap(deps: Deps, slug: string, reportNumber: number, voter: Voter): Promise<VoteResult> {
  const { project, settings } = await enabledRoadmap(deps, slug)
  if (!settings.show_upvotes) throw forbidden('upvotes are turned off on this roadmap')
  const tracker = await settingsOf(deps.db, project.id, 'tracker')
  return castVote(deps, onRoadmap(project.id, settings, tracker), reportNumber, voter)
}

/** Which of `reportNumbers` (reports of the project) `voter` has already voted for: the public pages mark those buttons. */
export async function votedNumbers(deps: Deps, projectId: string, reportNumbers: number[], voter: Voter): Promise<Set<number>> {
  if (reportNumbers.length === 0) return new Set()
  const key = voterKey(await voteSecret(deps, deps.clock.now()), voter)
  return createPublicRepository({ db: deps.db }).votedNumbers(projectId, reportNumbers, key)
}
