import type { AppDeps } from '../../app-deps'
import { chargeUpload } from '../auth/quota'
import { type PlanKey, requireFeature } from '../auth/plans'
import { updateSettingsIn } from './settings.service'

export const MAX_BACKGROUND_BYTES = 5 * 1024 * 1024

export interface BackgroundUpload {
  project: { id: string; accountId: string }
  plan: PlanKey
  actorId: string
  file: File
}

/**
 * Stores an image as the widget background (tier 2 and up) and points the widget settings at it.
 * The upload counts against the plan's upload quota; when that or the update fails, the blob is removed.
 */
export async function storeWidgetBackground(deps: Pick<AppDeps, 'db' | 'clock' | 'files'>, u: BackgroundUpload): Promise<{ background_image_url: string }> {
  requireFeature(u.plan, 'widget_themes')
  const stored = await deps.files.store(deps.db, {
    data: u.file,
    fileName: u.file.name,
    declaredType: u.file.type,
    kind: 'image',
    maxBytes: MAX_BACKGROUND_BYTES,
  })
  const url = deps.files.url(stored.key)
  try {
    await deps.db.write(async (tx) => {
      await chargeUpload(tx, u.project.accountId, stored.size)
      await updateSettingsIn(tx, deps.clock.now(), 'widget', { project: u.project, actorId: u.actorId, patch: { background_image_url: url } })
    })
  } catch (e) {
    await deps.files.remove(deps.db, [stored.key])
    throw e
  }
  return { background_image_url: url }
}
