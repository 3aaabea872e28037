import { createAuthRepository } from '../auth/auth.repository'
import { createActivityRepository } from './activity.repository'

export const ACTIVITY_PAGE_SIZE = 50

/** The database seam the repositories read through. */
export type Db = Parameters<typeof createActivityRepository>[0]['db']

/** One activity row as the API shows it, with its actor's name. */
export const entryOf = (a: { seq: number; action: string; field: string | null; oldValue: string | null; newValue: string | null; actorId: string | null }, names: Map<string, string>) => ({
  id: a.seq,
  action: a.action,
  field: a.field,
  old_value: a.oldValue,
  new_value: a.newValue,
  actor_id: a.actorId,
  actor_name: (a.actorId && names.get(a.actorId)) ?? null,
})

/** A report's activity, oldest first, with each actor's name (the API's shape). */
export async function reportActivityOf(db: Db, reportId: string) {
  const rows = await createActivityRepository({ db }).ofReport(reportId)
  const names = await createAuthRepository({ db }).namesOf(rows.flatMap((a) => (a.actorId ? [a.actorId] : [])))
  return rows.map((a) => ({ ...entryOf(a, names), created_at: a.createdAt.toISOString() }))
}
