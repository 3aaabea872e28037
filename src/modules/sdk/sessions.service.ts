import { and, eq, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Db } from '../../db/client'
import { conflict, notFound } from '../../http/errors'
import type { Project } from '../../http/auth.plugin'
import { newId } from '../../lib/ids'
import { projects } from '../projects/projects.table'
import type { SessionStartInput } from './sdk.schemas'
import { players, playSessions } from './sdk.table'
import type { Seam } from '../../db/client'

const p = sql.placeholder

/** Prepared statements of the session routes. */
export function createSessionsRepository(db: Db) {
  return {
    insert: db
      .insert(playSessions)
      .values({
        id: p('id'),
        projectId: p('projectId'),
        token: p('token'),
        playerId: p('playerId'),
        playerName: p('playerName'),
        platform: p('platform'),
        gameVersion: p('gameVersion'),
        deviceInfo: p('deviceInfo'),
        osInfo: p('osInfo'),
        startedAt: p('now'),
      })
      .onConflictDoNothing()
      .returning({ id: playSessions.id })
      .prepare(),
    upsertPlayer: db
      .insert(players)
      .values({ projectId: p('projectId'), playerId: p('playerId'), name: p('name'), firstSeen: p('now'), lastSeen: p('now'), sessionCount: 1 })
      .onConflictDoUpdate({
        target: [players.projectId, players.playerId],
        set: { name: sql`coalesce(excluded.name, ${players.name})`, lastSeen: sql`excluded.last_seen`, sessionCount: sql`${players.sessionCount} + 1` },
      })
      .prepare(),
    markFirstSession: db
      .update(projects)
      .set({ firstSessionAt: p('now') as never })
      .where(and(eq(projects.id, p('projectId')), isNull(projects.firstSessionAt)))
      .prepare(),
    byToken: db
      .select()
      .from(playSessions)
      .where(and(eq(playSessions.projectId, p('projectId')), eq(playSessions.token, p('token'))))
      .prepare(),
    end: db
      .update(playSessions)
      .set({ endedAt: p('now') as never, crashed: p('crashed') as never, durationSec: p('durationSec') as never })
      .where(and(eq(playSessions.id, p('id')), isNull(playSessions.endedAt)))
      .prepare(),
  }
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>

/** Starts a play session under the client's token (409 when the project saw it before) and records the player. */
export async function startSession(deps: Pick<AppDeps, 'clock'>, repo: SessionsRepository, writes: Seam, project: Project, input: SessionStartInput) {
  const now = deps.clock.now()
  const playerId = input.steam_id ?? input.player_id ?? null
  await writes.write(() => {
    const inserted = repo.insert.all({
      id: newId(),
      projectId: project.id,
      token: input.session_token,
      playerId,
      playerName: input.player_name ?? null,
      platform: input.platform ?? '',
      gameVersion: input.game_version ?? '',
      deviceInfo: input.device_info ?? '',
      osInfo: input.os_info ?? '',
      now,
    })
    if (inserted.length === 0) throw conflict('session token already used')
    if (playerId) repo.upsertPlayer.run({ projectId: project.id, playerId, name: input.player_name ?? null, now })
    if (!project.firstSessionAt) repo.markFirstSession.run({ projectId: project.id, now })
  })
  return { session_token: input.session_token, started_at: now.toISOString() }
}

/** Ends a session once; later calls for the same token change nothing and answer the same. 404 for unknown tokens. */
export function endSession(deps: Pick<AppDeps, 'clock'>, repo: SessionsRepository, project: Project, token: string, crashed: boolean) {
  let session = repo.byToken.get({ projectId: project.id, token })
  if (!session) throw notFound('session not found')
  if (!session.endedAt) {
    const now = deps.clock.now()
    repo.end.run({ id: session.id, now, crashed, durationSec: Math.max(0, Math.round((now.getTime() - session.startedAt.getTime()) / 1000)) })
    session = repo.byToken.get({ projectId: project.id, token })!
  }
  return {
    session_token: session.token,
    started_at: session.startedAt.toISOString(),
    ended_at: session.endedAt!.toISOString(),
    duration_sec: session.durationSec,
    crashed: session.crashed,
  }
}
