import { and, eq } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { projectSettings, type SettingsKind } from './settings.table'

const settingsOf = (projectId: string, kind: SettingsKind) => and(eq(projectSettings.projectId, projectId), eq(projectSettings.kind, kind))

/** Every read and write of project_settings, as async functions over the database seam. */
export function createSettingsRepository({ db }: { db: Seam }) {
  return {
    /** The stored value of the project's settings of `kind`, or undefined before the first change. */
    stored: async (projectId: string, kind: SettingsKind): Promise<Record<string, unknown> | undefined> =>
      (await db.read((q) => q.select({ value: projectSettings.value }).from(projectSettings).where(settingsOf(projectId, kind)).limit(1)))[0]?.value,

    /** Stores the project's settings of `kind` whole. */
    store: (projectId: string, kind: SettingsKind, value: Record<string, unknown>, now: Date) =>
      db.write((q) =>
        q
          .insert(projectSettings)
          .values({ projectId, kind, value, updatedAt: now })
          .onConflictDoUpdate({ target: [projectSettings.projectId, projectSettings.kind], set: { value, updatedAt: now } }),
      ),
  }
}
