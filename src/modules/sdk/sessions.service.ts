import type { AppDeps } from '../../app-deps'
import { conflict, notFound } from '../../http/errors'
import type { Project } from '../projects/projects.repository'
import { newId } from '../../lib/ids'
import { createProjectsRepository } from '../projects/projects.repository'
import type { SessionStartInput } from './sdk.schemas'
import { createSdkRepository } from './sdk.repository'

/** Starts a play session under the client's token (409 when the project saw it before) and records the player. */
export async function startSession(deps: Pick<AppDeps, 'db' | 'clock'>, project: Project, input: SessionStartInput) {
  const now = deps.clock.now()
  const playerId = input.steam_id ?? input.player_id ?? null
  await deps.db.write(async (tx) => {
    const sdk = createSdkRepository({ db: tx })
    const started = await sdk.insertSession({
      id: newId(),
      projectId: project.id,
      token: input.session_token,
      playerId,
      playerName: input.player_name ?? null,
      platform: input.platform ?? '',
      gameVersion: input.game_version ?? '',
      deviceInfo: input.device_info ?? '',
      osInfo: input.os_info ?? '',
      environment: '',
      startedAt: now,
    })
    if (!started) throw conflict('session token already used')
    if (playerId) await sdk.countPlayer({ projectId: project.id, playerId, name: input.player_name ?? null, at: now })
    if (!project.firstSessionAt) await createProjectsRepository({ db: tx }).markFirstSession(project.id, now)
  })
  return { session_token: input.session_token, started_at: now.toISOString() }
}

/** Ends a session once; later calls for the same token change nothing and answer the same. 404 for unknown tokens. */
export async function endSession(deps: Pick<AppDeps, 'db' | 'clock'>, project: Project, token: string, crashed: boolean) {
  const sdk = createSdkRepository({ db: deps.db })
  let session = await sdk.sessionByToken(project.id, token)
  if (!session) throw notFound('session not found')
  if (!session.endedAt) {
    const now = deps.clock.now()
    const durationSec = Math.max(0, Math.round((now.getTime() - session.startedAt.getTime()) / 1000))
    session = await deps.db.write(async (tx) => {
      const repo = createSdkRepository({ db: tx })
      await repo.endSession({ projectId: project.id, token }, { endedAt: now, crashed, durationSec })
      return (await repo.sessionByToken(project.id, token))!
    })
  }
  return {
    session_token: session.token,
    started_at: session.startedAt.toISOString(),
    ended_at: session.endedAt!.toISOString(),
    duration_sec: session.durationSec,
    crashed: session.crashed,
  }
}
