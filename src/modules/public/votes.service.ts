import { and, count, eq, gt, inArray, type SQL, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { forbidden, notFound } from '../../http/errors'
import { DAY } from '../../lib/clock'
import { hmacSha256Hex, randomToken } from '../../lib/ids'
import { parseIp } from '../../net/ip-ranges'
import { reports } from '../reports/reports.table'
import { enabledTracker, publicReportsOf, type PublicProject } from './public.service'
import { reportVotes, serverSecrets } from './public.table'
import { enabledRoadmap } from './roadmap.service'

const VOTE_SECRET = 'vote_voter_key'
const secretCache = new WeakMap<object, string>()

/** The server's vote-hashing key, created on first use and kept in the database so restarts keep votes idempotent. */
function voteSecret(db: DbOrTx, now: Date): string {
  const cached = secretCache.get(db)
  if (cached) return cached
  db.insert(serverSecrets).values({ name: VOTE_SECRET, value: randomToken(32), createdAt: now }).onConflictDoNothing().run()
  const value = db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, VOTE_SECRET)).get()!.value
  secretCache.set(db, value)
  return value
}

export interface Voter {
  playerId?: string
  ip: string
}

/** The stored identity of a voter: an HMAC of the player id, or of the client IP when none is given. */
export function voterKey(secret: string, v: Voter): string {
  return hmacSha256Hex(secret, v.playerId ? `player:${v.playerId}` : `ip:${v.ip}`)
}

/**
 * Player ids are the client's word, so one address could invent any number of voters: it adds at
 * most this many votes with player ids to one report in 24 hours (a household or a LAN party still
 * votes; a script does not). Further ones answer like a repeat.
 */
export const PLAYER_VOTES_PER_ADDRESS_PER_DAY = 3

const V4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]

/** The keyed hash of the address a player vote came from; an IPv6 client owns a whole /64, so that is its address. */
function addressKey(secret: string, ip: string): string {
  const bytes = parseIp(ip)
  const v6 = bytes !== null && V4_MAPPED_PREFIX.some((b, i) => bytes[i] !== b)
  return hmacSha256Hex(secret, v6 ? `net:${Buffer.from(bytes.subarray(0, 8)).toString('hex')}` : `addr:${ip}`)
}

export interface VoteResult {
  upvotes: number
  is_new: boolean
}

/**
 * Records one vote per voter on a public report (narrowed by `only`) and bumps its count in the
 * same transaction; a repeat changes nothing.
 */
function castVote(deps: Pick<AppDeps, 'db' | 'clock'>, project: PublicProject, reportNumber: number, voter: Voter, only?: SQL): VoteResult {
  const now = deps.clock.now()
  const secret = voteSecret(deps.db, now)
  const key = voterKey(secret, voter)
  const address = voter.playerId ? addressKey(secret, voter.ip) : null
  return deps.db.transaction((tx) => {
    const report = tx
      .select({ seq: reports.seq, upvotes: reports.upvotes })
      .from(reports)
      .where(and(publicReportsOf(project.id), eq(reports.reportNumber, reportNumber), only))
      .get()
    if (!report) throw notFound('bug not found')
    const repeat = { upvotes: report.upvotes, is_new: false }
    if (address) {
      const [recent] = tx
        .select({ n: count() })
        .from(reportVotes)
        .where(and(eq(reportVotes.reportSeq, report.seq), eq(reportVotes.addressKey, address), gt(reportVotes.createdAt, new Date(now.getTime() - DAY))))
        .all()
      if (recent!.n >= PLAYER_VOTES_PER_ADDRESS_PER_DAY) return repeat
    }
    const inserted = tx.insert(reportVotes).values({ reportSeq: report.seq, voterKey: key, addressKey: address, createdAt: now }).onConflictDoNothing().returning().all()
    if (inserted.length === 0) return repeat
    const [bumped] = tx
      .update(reports)
      .set({ upvotes: sql`${reports.upvotes} + 1` })
      .where(eq(reports.seq, report.seq))
      .returning({ upvotes: reports.upvotes })
      .all()
    return { upvotes: bumped!.upvotes, is_new: true }
  })
}

/** A vote from the public tracker; 404 unless it is enabled, 403 unless it allows upvotes. */
export function voteOnTracker(deps: Pick<AppDeps, 'db' | 'clock'>, slug: string, reportNumber: number, voter: Voter): VoteResult {
  const { project, settings } = enabledTracker(deps.db, slug)
  if (!settings.allow_upvotes) throw forbidden('upvotes are turned off on this tracker')
  return castVote(deps, project, reportNumber, voter)
}

/** A vote from the public roadmap on a report it shows; 404 unless it is enabled, 403 unless it shows upvotes. */
export function voteOnRoadmap(deps: Pick<AppDeps, 'db' | 'clock'>, slug: string, reportNumber: number, voter: Voter): VoteResult {
  const { project, settings } = enabledRoadmap(deps.db, slug)
  if (!settings.show_upvotes) throw forbidden('upvotes are turned off on this roadmap')
  return castVote(deps, project, reportNumber, voter, inArray(reports.status, settings.statuses))
}

/** Which of `reportNumbers` (reports of the project) `voter` has already voted for: the public pages mark those buttons. */
export function votedNumbers(deps: Pick<AppDeps, 'db' | 'clock'>, projectId: string, reportNumbers: number[], voter: Voter): Set<number> {
  if (reportNumbers.length === 0) return new Set()
  const key = voterKey(voteSecret(deps.db, deps.clock.now()), voter)
  const rows = deps.db
    .select({ n: reports.reportNumber })
    .from(reportVotes)
    .innerJoin(reports, eq(reports.seq, reportVotes.reportSeq))
    .where(and(eq(reportVotes.voterKey, key), eq(reports.projectId, projectId), inArray(reports.reportNumber, reportNumbers)))
    .all()
  return new Set(rows.map((r) => r.n))
}
