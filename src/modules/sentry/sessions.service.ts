import type { AppDeps } from '../../app-deps'
import type { Project } from '../projects/projects.repository'
import { newId } from '../../lib/ids'
import { createProjectsRepository } from '../projects/projects.repository'
import { createSdkRepository, type SdkRepository } from '../sdk/sdk.repository'
import type { SentrySessionAggregate, SentrySessionUpdate } from './protocol'

/** Sessions one envelope may add from aggregate buckets (a server-mode SDK's counts); the rest are left out. */
export const MAX_AGGREGATED_SESSIONS = 2_000

type Deps = Pick<AppDeps, 'db' | 'clock'>

const durationOf = (start: Date, end: Date) => Math.max(0, Math.round((end.getTime() - start.getTime()) / 1000))

/** One session update: the play session of its `sid` is started when new (its player counted, as a session from Glitchbox's SDK), and ended (crashed or not) once its status says so. */
async function applyUpdate(sdk: SdkRepository, project: Project, u: SentrySessionUpdate, now: Date): Promise<void> {
  const started = u.started ?? u.timestamp ?? now
  const token = `sentry-${u.sessionId}`
  const isNew = await sdk.insertSession({ id: newId(), projectId: project.id, token, playerId: u.distinctId, playerName: null, platform: '', gameVersion: u.release ?? '', deviceInfo: '', osInfo: '', environment: u.environment ?? '', startedAt: started })
  if (isNew && u.distinctId) await sdk.countPlayer({ projectId: project.id, playerId: u.distinctId, name: null, at: started })
  if (u.outcome === 'running') return
  const ended = u.timestamp ?? now
  const duration = u.duration !== null ? Math.round(u.duration) : durationOf(started, ended)
  await sdk.endSession({ projectId: project.id, token }, { endedAt: ended, crashed: u.outcome === 'crash', durationSec: duration })
}

/** Aggregate buckets as ended play sessions, one per counted session (clean or crashed), up to the cap. */
function sessionsOfAggregates(project: Project, buckets: SentrySessionAggregate[]) {
  const rows = []
  for (const b of buckets) {
    const crashed = b.crashed + b.abnormal + b.unhandled
    const outcomes = [...Array<boolean>(b.exited + b.errored).fill(false), ...Array<boolean>(crashed).fill(true)]
    for (const isCrash of outcomes) {
      if (rows.length >= MAX_AGGREGATED_SESSIONS) return rows
      rows.push({ id: newId(), projectId: project.id, token: `sentry-agg-${newId()}`, playerId: b.distinctId, gameVersion: b.release ?? '', environment: b.environment ?? '', startedAt: b.started, endedAt: b.started, crashed: isCrash, durationSec: 0 })
    }
  }
  return rows
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
  await deps.db.write(async (tx) => {
    const sdk = createSdkRepository({ db: tx })
    for (const u of updates) await applyUpdate(sdk, project, u, now)
    const aggregated = sessionsOfAggregates(project, aggregates)
    if (aggregated.length) await sdk.insertEndedSessions(aggregated)
    await createProjectsRepository({ db: tx }).markFirstSession(project.id, now)
  })
}
