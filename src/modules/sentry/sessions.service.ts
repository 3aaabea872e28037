import { and, eq, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import type { Project } from '../../http/auth.plugin'
import { newId } from '../../lib/ids'
import { projects } from '../projects/projects.table'
import { players, playSessions } from '../sdk/sdk.table'
import type { SentrySessionAggregate, SentrySessionUpdate } from './protocol'

/** Sessions one envelope may add from aggregate buckets (a server-mode SDK's counts); the rest are left out. */
export const MAX_AGGREGATED_SESSIONS = 2_000

type Deps = Pick<AppDeps, 'db' | 'clock'>

const durationOf = (start: Date, end: Date) => Math.max(0, Math.round((end.getTime() - start.getTime()) / 1000))

/** One session update: the play session of its `sid` is started when new, and ended (crashed or not) once its status says so. */
function applyUpdate(tx: Query, project: Project, u: SentrySessionUpdate, now: Date): void {
  const started = u.started ?? u.timestamp ?? now
  const inserted = tx
    .insert(playSessions)
    .values({ id: newId(), projectId: project.id, token: `sentry-${u.sessionId}`, playerId: u.distinctId, gameVersion: u.release ?? '', environment: u.environment ?? '', startedAt: started })
    .onConflictDoNothing()
    .returning({ id: playSessions.id })
    .all()
  if (inserted.length && u.distinctId) countPlayer(tx, project.id, u.distinctId, started)
  if (u.outcome === 'running') return
  const ended = u.timestamp ?? now
  const duration = u.duration !== null ? Math.round(u.duration) : durationOf(started, ended)
  tx.update(playSessions)
    .set({ endedAt: ended, crashed: u.outcome === 'crash', durationSec: duration })
    .where(and(eq(playSessions.projectId, project.id), eq(playSessions.token, `sentry-${u.sessionId}`), isNull(playSessions.endedAt)))
    .run()
}

/** A player seen by a session: their player page counts it (as a session from Glitchbox's SDK does). */
function countPlayer(tx: Query, projectId: string, playerId: string, at: Date): void {
  tx.insert(players)
    .values({ projectId, playerId, firstSeen: at, lastSeen: at, sessionCount: 1 })
    .onConflictDoUpdate({ target: [players.projectId, players.playerId], set: { lastSeen: sql`max(${players.lastSeen}, excluded.last_seen)`, sessionCount: sql`${players.sessionCount} + 1` } })
    .run()
}

/** Aggregate buckets as ended play sessions, one per counted session (clean or crashed), up to the cap. */
function applyAggregates(tx: Query, project: Project, buckets: SentrySessionAggregate[]): number {
  let added = 0
  for (const b of buckets) {
    const crashed = b.crashed + b.abnormal + b.unhandled
    const outcomes = [...Array<boolean>(b.exited + b.errored).fill(false), ...Array<boolean>(crashed).fill(true)]
    for (const isCrash of outcomes) {
      if (added >= MAX_AGGREGATED_SESSIONS) return added
      tx.insert(playSessions)
        .values({ id: newId(), projectId: project.id, token: `sentry-agg-${newId()}`, playerId: b.distinctId, gameVersion: b.release ?? '', environment: b.environment ?? '', startedAt: b.started, endedAt: b.started, crashed: isCrash, durationSec: 0 })
        .run()
      added++
    }
  }
  return added
}

/**
 * Sentry's `session` and `sessions` items as play sessions, so release health and crash-free rates
 * work for games instrumented with Sentry: a session is one play session keyed by its `sid`, ended
 * once, as a crash when its status is crashed, abnormal or unhandled (errored is not a crash);
 * aggregate buckets count sessions of a minute. The project's first session is recorded as for
 * Glitchbox's own SDK (the setup checklist ticks).
 */
export async function recordSentrySessions(deps: Deps, project: Project, updates: SentrySessionUpdate[], aggregates: SentrySessionAggregate[]): Promise<void> {
  if (!updates.length && !aggregates.length) return
  const now = deps.clock.now()
  await deps.db.write((tx) => {
    for (const u of updates) applyUpdate(tx, project, u, now)
    applyAggregates(tx, project, aggregates)
    tx.update(projects).set({ firstSessionAt: sql`coalesce(${projects.firstSessionAt}, ${now.getTime()})` }).where(eq(projects.id, project.id)).run()
  })
}
