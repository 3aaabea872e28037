import { and, eq, gt, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { type Clock, systemClock } from '../lib/clock'
import { accounts } from '../modules/accounts/accounts.table'
import { projects } from '../modules/projects/projects.table'
import type { Account, Project } from './auth.plugin'

/** The project an SDK key names, with its account: who is calling. */
export type SdkCaller = {
  project: Project
  account: Account
}

/** How long a caller is kept: changes made by another process (the CLI) apply within this. */
const KEEP_MS = 1000
/** Most keys kept; past this the cache starts over (a studio has a handful of projects). */
const MAX_KEYS = 10_000

/**
 * SDK callers by API key, kept in memory for a second. Every SDK request names its project by key
 * (the upload parser checks it too, before reading the body), and two row reads per request were
 * ~10% of a submit under load. Counters on the cached rows go stale at once, so callers only read
 * settings from them (visibility, capture switches, grouping, plan); counters are read and bumped
 * in SQL. Changes made in this process (key rotation, settings, deletion, plan) call
 * `forgetSdkCallers`, so they apply to the next request. Unknown and private keys are never kept.
 * A key rotated out with a grace period names its project until the grace ends (by `clock`).
 */
class SdkCallers {
  private kept = new Map<string, { caller: SdkCaller; until: number; graceUntil: number | null }>()
  private projectByKey
  private projectByPreviousKey
  private accountById
  clock: Clock = systemClock

  constructor(db: Db) {
    this.projectByKey = db.select().from(projects).where(eq(projects.apiKey, sql.placeholder('key'))).prepare()
    this.projectByPreviousKey = db
      .select()
      .from(projects)
      .where(and(eq(projects.previousApiKey, sql.placeholder('key')), gt(projects.previousApiKeyExpiresAt, sql.placeholder('now'))))
      .prepare()
    this.accountById = db.select().from(accounts).where(eq(accounts.id, sql.placeholder('id'))).prepare()
  }

  /** The public project of `key` (its current key, or the one before while its grace runs) with its account, or undefined. */
  get(key: string): SdkCaller | undefined {
    const now = performance.now()
    const hit = this.kept.get(key)
    if (hit && hit.until > now && (hit.graceUntil === null || hit.graceUntil > this.clock.now().getTime())) return hit.caller
    const project = this.projectByKey.get({ key }) ?? this.projectByPreviousKey.get({ key, now: this.clock.now().getTime() })
    const account = project?.isPublic ? this.accountById.get({ id: project.accountId }) : undefined
    if (!project || !account) {
      this.kept.delete(key)
      return undefined
    }
    if (this.kept.size >= MAX_KEYS) this.kept.clear()
    const caller = { project, account }
    const graceUntil = project.apiKey === key ? null : project.previousApiKeyExpiresAt!.getTime()
    this.kept.set(key, { caller, until: now + KEEP_MS, graceUntil })
    return caller
  }

  forget(): void {
    this.kept.clear()
  }
}

const byDb = new WeakMap<Db, SdkCallers>()
function callersOf(db: Db): SdkCallers {
  let c = byDb.get(db)
  if (!c) byDb.set(db, (c = new SdkCallers(db)))
  return c
}

/** The caller an SDK key names: its project while public, with the account; undefined otherwise. */
export const sdkCallerOf = (db: Db, key: string): SdkCaller | undefined => callersOf(db).get(key)

/** The clock that decides whether a rotated key's grace has ended: the app's (tests move theirs). */
export const useSdkCallerClock = (db: Db, clock: Clock): void => {
  callersOf(db).clock = clock
}

/** Drops every kept caller: call after changing a project's key, settings or existence, or an account's plan. */
export const forgetSdkCallers = (db: Db): void => byDb.get(db)?.forget()
