import type { Seam } from '../../db/client'
import { createMaintenanceRepository } from './maintenance.repository'

export interface ActiveBanner {
  active: boolean
  message: string | null
  ends_at: string | null
  started_at: string | null
}

/** The newest banner that is neither cleared nor past its end. */
export async function activeBanner(db: Seam, now: Date): Promise<ActiveBanner> {
  const row = await createMaintenanceRepository({ db }).active(now)
  if (!row) return { active: false, message: null, ends_at: null, started_at: null }
  return { active: true, message: row.message, ends_at: row.endsAt?.toISOString() ?? null, started_at: row.createdAt.toISOString() }
}

/** Shows `message` until `endsAt` (or until cleared). */
export async function setBanner(db: Seam, message: string, endsAt: Date | null, now: Date): Promise<void> {
  await createMaintenanceRepository({ db }).insert({ message, endsAt, createdAt: now })
}

/** Clears every banner in effect. */
export async function clearBanners(db: Seam, now: Date): Promise<void> {
  await createMaintenanceRepository({ db }).clearAll(now)
}
