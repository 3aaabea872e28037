import { inArray } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { users } from './auth.table'

/** Reads and writes of the accounts of people (users), as async functions over the database seam. */
export function createAuthRepository({ db }: { db: Seam }) {
  return {
    /** The name to show for each user id (display name, else name); ids of deleted users are missing. */
    namesOf: async (ids: string[]): Promise<Map<string, string>> => {
      const unique = [...new Set(ids)]
      if (unique.length === 0) return new Map()
      const rows = await db.read((q) => q.select({ id: users.id, name: users.name, displayName: users.displayName }).from(users).where(inArray(users.id, unique)))
      return new Map(rows.map((u) => [u.id, u.displayName ?? u.name]))
    },
  }
}
