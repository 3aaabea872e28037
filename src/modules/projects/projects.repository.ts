import { and, count, eq, gt, isNull, like, or, type SQL, sql } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { projectSlugRedirects, projects } from './projects.table'

type ProjectChanges = Partial<Omit<typeof projects.$inferInsert, 'id' | 'accountId' | 'createdBy' | 'createdAt' | 'dsnId'>>

/** A slug held as a redirect until `expiresAt` counts as taken. */
const liveRedirect = (slug: SQL | undefined, now: Date) => and(slug, gt(projectSlugRedirects.expiresAt, now))
/** `base` itself and `base-` followed by anything. */
const slugOrSuffixed = (column: typeof projects.slug | typeof projectSlugRedirects.slug, base: string) => or(eq(column, base), like(column, `${base}-%`))

/** Every read and write of projects and project_slug_redirects, as async functions over the database seam. */
export function createProjectsRepository({ db }: { db: Seam }) {
  return {
    /** The project's slug, or undefined when it is gone. */
    slugOf: async (id: string): Promise<string | undefined> => (await db.read((q) => q.select({ slug: projects.slug }).from(projects).where(eq(projects.id, id)).limit(1)))[0]?.slug,

    /** How many projects the account has. */
    countInAccount: async (accountId: string): Promise<number> => {
      const [row] = await db.read((q) => q.select({ n: count() }).from(projects).where(eq(projects.accountId, accountId)))
      return row!.n
    },

    /** The account's projects that `visible` lets through, oldest first. */
    listInAccount: (accountId: string, visible: SQL | undefined) =>
      db.read((q) => q.select().from(projects).where(and(eq(projects.accountId, accountId), visible)).orderBy(projects.createdAt, projects.id)),

    insert: (row: typeof projects.$inferInsert) => db.write((q) => q.insert(projects).values(row)),

    update: (id: string, changes: ProjectChanges) => db.write((q) => q.update(projects).set(changes).where(eq(projects.id, id))),

    /** Deletes a project; foreign keys take its reports and everything hanging off them. */
    remove: (id: string) => db.write((q) => q.delete(projects).where(eq(projects.id, id))),

    /** The slugs `base` and `base-…` that a project has or a live redirect holds. */
    slugsInUse: async (base: string, now: Date): Promise<Set<string>> => {
      const [owned, held] = await Promise.all([
        db.read((q) => q.select({ slug: projects.slug }).from(projects).where(slugOrSuffixed(projects.slug, base))),
        db.read((q) => q.select({ slug: projectSlugRedirects.slug }).from(projectSlugRedirects).where(liveRedirect(slugOrSuffixed(projectSlugRedirects.slug, base), now))),
      ])
      return new Set([...owned, ...held].map((r) => r.slug))
    },

    /** Whether a project has this slug. */
    slugOwned: async (slug: string): Promise<boolean> => (await db.read((q) => q.select({ id: projects.id }).from(projects).where(eq(projects.slug, slug)).limit(1))).length > 0,

    /** The project whose old URLs the slug redirects to while the redirect lasts, or undefined. */
    redirectHolder: async (slug: string, now: Date): Promise<string | undefined> => {
      const [row] = await db.read((q) => q.select({ projectId: projectSlugRedirects.projectId }).from(projectSlugRedirects).where(liveRedirect(eq(projectSlugRedirects.slug, slug), now)).limit(1))
      return row?.projectId
    },

    /**
     * Gives the project its new slug and holds the old one as a redirect until `expiresAt`; a row
     * left for the new slug (an ended redirect, or the project's own) goes.
     */
    moveSlug: (project: { id: string; slug: string }, wanted: string, expiresAt: Date, now: Date) =>
      db.write(async (q) => {
        await q.delete(projectSlugRedirects).where(eq(projectSlugRedirects.slug, wanted))
        await q.update(projects).set({ slug: wanted }).where(eq(projects.id, project.id))
        await q
          .insert(projectSlugRedirects)
          .values({ slug: project.slug, projectId: project.id, expiresAt, createdAt: now })
          .onConflictDoUpdate({ target: projectSlugRedirects.slug, set: { projectId: project.id, expiresAt, createdAt: now } })
      }),

    /** Records when the project's first play session started (the setup checklist); a later one changes nothing. */
    markFirstSession: (id: string, at: Date) => db.write((q) => q.update(projects).set({ firstSessionAt: at }).where(and(eq(projects.id, id), isNull(projects.firstSessionAt)))),

    /** Whether a public project has this DSN id (Sentry's routes check it before reading a body). */
    publicDsn: async (dsnId: number): Promise<boolean> =>
      (await db.read((q) => q.select({ id: projects.id }).from(projects).where(and(eq(projects.dsnId, dsnId), eq(projects.isPublic, true))).limit(1))).length > 0,

    /** Takes `n` reports off the project's live count (reports merged away), never below 0. */
    dropLiveReports: (id: string, n: number) => db.write((q) => q.update(projects).set({ liveReportCount: sql`max(${projects.liveReportCount} - ${n}, 0)` }).where(eq(projects.id, id))),
  }
}
