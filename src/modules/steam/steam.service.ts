import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { badGateway, conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import { SteamError } from './steam.client'
import { createSteamRepository, type SteamApp } from './steam.repository'
import type { ConnectSteamBody } from './steam.schemas'
import { syncReviews } from './steam.sync'

export const SYNC_KIND = 'steam.sync'

interface ProjectRef {
  id: string
  accountId: string
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** The Steam domain's repository over the app's database. */
export const steam = (deps: Pick<AppDeps, 'db'>) => createSteamRepository({ db: deps.db })

/** The project's Steam app, or 404. */
export async function steamAppOf(deps: Pick<AppDeps, 'db'>, projectId: string): Promise<SteamApp> {
  const app = await steam(deps).appOf(projectId)
  if (!app) throw notFound('Steam is not connected to this project')
  return app
}

/** The connection as the API shows it. */
export function steamView(app: SteamApp) {
  return {
    id: app.id,
    app_id: app.appId,
    store_url: `https://store.steampowered.com/app/${app.appId}/`,
    sync_enabled: app.syncEnabled,
    last_sync_at: iso(app.lastSyncAt),
    created_at: app.createdAt.toISOString(),
    updated_at: app.updatedAt.toISOString(),
  }
}

/** Enqueues an import of each app's reviews (one insert), at most one per app and hour. */
export async function enqueueSync(deps: Pick<AppDeps, 'jobs' | 'clock'>, tx: Seam, appRowIds: string[]): Promise<void> {
  const hour = Math.floor(deps.clock.now().getTime() / 3_600_000)
  await deps.jobs.enqueue(
    tx,
    appRowIds.map((appRowId) => ({ kind: SYNC_KIND, payload: { steamAppId: appRowId }, idempotencyKey: `${SYNC_KIND}:${appRowId}:${hour}` })),
  )
}

/** Connects the project to a Steam app; the first import is queued when sync is on. 409 when one is connected. */
export async function connectSteam(deps: AppDeps, project: ProjectRef, actorId: string, body: ConnectSteamBody) {
  if (await steam(deps).appOf(project.id)) {
    throw conflict('Steam is already connected to this project; change it with PATCH or remove it first')
  }
  const now = deps.clock.now()
  const id = newId()
  const syncEnabled = body.sync_enabled ?? true
  await deps.db.write(async (tx) => {
    await steam(deps).insertApp({ id, projectId: project.id, appId: body.app_id, syncEnabled, createdBy: actorId, createdAt: now, updatedAt: now })
    if (syncEnabled) await enqueueSync(deps, tx, [id])
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'steam.connected', target: id, details: { app_id: body.app_id } })
  })
  return steamView(await steamAppOf(deps, project.id))
}

/** Turns the hourly import on or off. */
export async function updateSteam(deps: AppDeps, project: ProjectRef, body: { sync_enabled: boolean }) {
  const app = await steamAppOf(deps, project.id)
  await steam(deps).setSyncEnabled(app.id, body.sync_enabled, deps.clock.now())
  return { message: body.sync_enabled ? 'Steam sync enabled' : 'Steam sync disabled' }
}

/** Disconnects Steam; imported reviews are kept and shown again if the same app is connected later. */
export async function deleteSteam(deps: AppDeps, project: ProjectRef, actorId: string) {
  const app = await steamAppOf(deps, project.id)
  await deps.db.write(async (tx) => {
    await steam(deps).removeApp(app.id)
    await recordAudit(tx, deps.clock.now(), { accountId: project.accountId, projectId: project.id, actorId, action: 'steam.disconnected', target: app.id, details: { app_id: app.appId } })
  })
  return { message: 'Steam disconnected' }
}

/** Imports reviews now; 502 with Steam's answer when it refuses or cannot be reached. */
export async function syncNow(deps: AppDeps, projectId: string) {
  const app = await steamAppOf(deps, projectId)
  try {
    return await syncReviews(deps, app)
  } catch (err) {
    if (err instanceof SteamError) throw badGateway(err.message)
    throw err
  }
}
