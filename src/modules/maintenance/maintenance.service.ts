import { and, desc, gt, isNull, or } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { maintenanceBanners } from './maintenance.table'

export interface ActiveBanner {
  active: boolean
  message: string | null
  ends_at: string | null
  started_at: string | null
}

/** The newest banner that is neither cleared nor past its end. */
export function activeBanner(db: DbOrTx, now: Date): ActiveBanner {
  const row = db
    .select()
    .from(maintenanceBanners)
    .where(and(isNull(maintenanceBanners.clearedAt), or(isNull(maintenanceBanners.endsAt), gt(maintenanceBanners.endsAt, now))))
    .orderBy(desc(maintenanceBanners.id))
    .get()
  if (!row) return { active: false, message: null, ends_at: null, started_at: null }
  return { active: true, message: row.message, ends_at: row.endsAt?.toISOString() ?? null, started_at: row.createdAt.toISOString() }
}

/** Shows `message` until `endsAt` (or until cleared). */
export function setBanner(db: DbOrTx, message: string, endsAt: Date | null, now: Date): void {
  db.insert(maintenanceBanners).values({ message, endsAt, createdAt: now }).run()
}

/** Clears every banner in effect. */
export function clearBanners(db: DbOrTx, now: Date): void {
  db.update(maintenanceBanners).set({ clearedAt: now }).where(isNull(maintenanceBanners.clearedAt)).run()
}
