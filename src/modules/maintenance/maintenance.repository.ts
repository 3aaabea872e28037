import { and, desc, gt, isNull, or } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { maintenanceBanners } from './maintenance.table'

/** Every read and write of maintenance_banners, as async functions over the database seam. */
export function createMaintenanceRepository({ db }: { db: Seam }) {
  return {
    /** The newest banner that is neither cleared nor past its end, or undefined. */
    active: async (now: Date): Promise<typeof maintenanceBanners.$inferSelect | undefined> =>
      (
        await db.read((q) =>
          q
            .select()
            .from(maintenanceBanners)
            .where(and(isNull(maintenanceBanners.clearedAt), or(isNull(maintenanceBanners.endsAt), gt(maintenanceBanners.endsAt, now))))
            .orderBy(desc(maintenanceBanners.id))
            .limit(1),
        )
      )[0],

    insert: (row: typeof maintenanceBanners.$inferInsert) => db.write((q) => q.insert(maintenanceBanners).values(row)),

    /** Clears every banner in effect. */
    clearAll: (now: Date) => db.write((q) => q.update(maintenanceBanners).set({ clearedAt: now }).where(isNull(maintenanceBanners.clearedAt))),
  }
}
