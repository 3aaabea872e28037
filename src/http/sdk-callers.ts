import type { Seam } from '../db/client'
import { type Clock, systemClock } from '../lib/clock'
import { type Account, createAccountsRepository } from '../modules/auth/accounts.repository'
import { createProjectsRepository, type Project } from '../modules/projects/projects.repository'

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
  /** Reads under way by key: requests arriving together when a key's second ran out share one read instead of each reading. */
  private reading = new Map<string, Promise<SdkCaller | undefined>>()
  /** Bumped by `forget`: a read that started before it must not keep what it found. */
  private generation = 0
  private projects
  private accounts
  clock: Clock = systemClock

  constructor(db: Seam) {
    this.projects = createProjectsRepository({ db })
    this.accounts = createAccountsRepository({ db })
  }

  /** The public project of `key` (its current key, or the one before while its grace runs) with its account, or undefined. */
  async get(key: string): Promise<SdkCaller | undefined> {
    const now = performance.now()
    const hit = this.kept.get(key)
    if (hit && hit.until > now && (hit.graceUntil === null || hit.graceUntil > this.clock.now().getTime())) return hit.caller
    let read = this.reading.get(key)
    if (!read) {
      const started: Promise<SdkCaller | undefined> = this.read(key, now).finally(() => {
        if (this.reading.get(key) === started) this.reading.delete(key)
      })
      this.reading.set(key, (read = started))
    }
    return read
  }

  private async read(key: string, now: number): Promise<SdkCaller | undefined> {
    const generation = this.generation
    const project = await this.projects.bySdkKey(key, this.clock.now())
    const account = project?.isPublic ? await this.accounts.byId(project.accountId) : undefined
    if (!project || !account) {
      this.kept.delete(key)
      return undefined
    }
    const caller = { project, account }
    if (generation !== this.generation) return caller
    if (this.kept.size >= MAX_KEYS) this.kept.clear()
    const graceUntil = project.apiKey === key ? null : project.previousApiKeyExpiresAt!.getTime()
    this.kept.set(key, { caller, until: now + KEEP_MS, graceUntil })
    return caller
  }

  forget(): void {
    this.generation++
    this.kept.clear()
    this.reading.clear()
  }
}

const byDb = new WeakMap<Seam, SdkCallers>()
function callersOf(db: Seam): SdkCallers {
  let c = byDb.get(db)
  if (!c) byDb.set(db, (c = new SdkCallers(db)))
  return c
}

/** The caller an SDK key names: its project while public, with the account; undefined otherwise. */
export const sdkCallerOf = (db: Seam, key: string): Promise<SdkCaller | undefined> => callersOf(db).get(key)

/** The clock that decides whether a rotated key's grace has ended: the app's (tests move theirs). */
export const useSdkCallerClock = (db: Seam, clock: Clock): void => {
  callersOf(db).clock = clock
}

/** Drops every kept caller: call after changing a project's key, settings or existence, or an account's plan. */
export const forgetSdkCallers = (db: Seam): void => byDb.get(db)?.forget()
