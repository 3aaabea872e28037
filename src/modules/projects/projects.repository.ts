import { and, asc, count, eq, gt, inArray, isNull, like, or, type SQL, sql } from 'drizzle-orm'
import { preparedPerConnection, type Query, type Seam } from '../../db/client'
import type { Backfill } from '../../db/post-migrate'
import { projectSlugRedirects, projects } from './projects.table'

/** A project as stored (the request guard loads it for every project route). */
export type Project = typeof projects.$inferSelect

type ProjectChanges = Partial<Omit<typeof projects.$inferInsert, 'id' | 'accountId' | 'createdBy' | 'createdAt' | 'dsnId'>>

/** What public pages and mails may know of a project: never its key. */
const publicColumns = { id: projects.id, accountId: projects.accountId, name: projects.name, slug: projects.slug, isPublic: projects.isPublic }
export type PublicProjectRow = { id: string; accountId: string; name: string; slug: string; isPublic: boolean }

/** A condition on `projects.id` keeping the projects a membership limited to `projectIds` sees (undefined: all of them). */
export const visibleProjectsWhere = (projectIds: string[] | null | undefined): SQL | undefined => (projectIds ? inArray(projects.id, projectIds) : undefined)

/** A slug held as a redirect until `expiresAt` counts as taken. */
const liveRedirect = (slug: SQL | undefined, now: Date) => and(slug, gt(projectSlugRedirects.expiresAt, now))
/** `base` itself and `base-` followed by anything. */
const slugOrSuffixed = (column: typeof projects.slug | typeof projectSlugRedirects.slug, base: string) => or(eq(column, base), like(column, `${base}-%`))

/** Every read and write of projects and project_slug_redirects, as async functions over the database seam. */
export function createProjectsRepository({ db }: { db: Seam }) {
  return {
    /** The project, or undefined when it is gone. */
    byId: async (id: string): Promise<typeof projects.$inferSelect | undefined> => (await db.read((q) => q.select().from(projects).where(eq(projects.id, id)).limit(1)))[0],

    /** The projects with these ids, by id; ids of deleted projects are missing. */
    byIds: async (ids: string[]): Promise<Map<string, typeof projects.$inferSelect>> =>
      ids.length ? new Map((await db.read((q) => q.select().from(projects).where(inArray(projects.id, [...new Set(ids)])))).map((p) => [p.id, p])) : new Map(),

    /** The project's slug, or undefined when it is gone. */
    slugOf: async (id: string): Promise<string | undefined> => (await db.read((q) => q.select({ slug: projects.slug }).from(projects).where(eq(projects.id, id)).limit(1)))[0]?.slug,

    /** How many projects the account has. */
    countInAccount: async (accountId: string): Promise<number> => {
      const [row] = await db.read((q) => q.select({ n: count() }).from(projects).where(eq(projects.accountId, accountId)))
      return row!.n
    },

    /** The account's projects that a membership limited to `projectIds` sees (null: all of them), oldest first. */
    listInAccount: (accountId: string, projectIds: string[] | null) =>
      db.read((q) => q.select().from(projects).where(and(eq(projects.accountId, accountId), visibleProjectsWhere(projectIds))).orderBy(projects.createdAt, projects.id)),

    /** Ids of the account's projects. */
    idsInAccount: async (accountId: string): Promise<string[]> => (await db.read((q) => q.select({ id: projects.id }).from(projects).where(eq(projects.accountId, accountId)))).map((p) => p.id),

    /** Names of the projects with these ids, in name order. */
    namesOf: async (ids: string[]): Promise<string[]> =>
      ids.length ? (await db.read((q) => q.select({ name: projects.name }).from(projects).where(inArray(projects.id, ids)).orderBy(asc(projects.name)))).map((p) => p.name) : [],

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

    /** The project behind a public page (id, account, name, slug, whether players may file), or undefined; never its key. */
    bySlug: async (slug: string): Promise<PublicProjectRow | undefined> => (await db.read((q) => q.select(publicColumns).from(projects).where(eq(projects.slug, slug)).limit(1)))[0],

    /** The account's projects (id and name), by name. */
    namesInAccount: (accountId: string) => db.read((q) => q.select({ id: projects.id, name: projects.name }).from(projects).where(eq(projects.accountId, accountId)).orderBy(asc(projects.name))),

    /** The project's SDK key, for the server alone (the public report form files as the SDK would); undefined when it is gone. */
    apiKeyOf: async (id: string): Promise<string | undefined> => (await db.read((q) => q.select({ apiKey: projects.apiKey }).from(projects).where(eq(projects.id, id)).limit(1)))[0]?.apiKey,

    /** The project's account, or undefined when the project is gone. */
    accountIdOf: async (id: string): Promise<string | undefined> => (await db.read((q) => q.select({ accountId: projects.accountId }).from(projects).where(eq(projects.id, id)).limit(1)))[0]?.accountId,

    /** Id, slug and name of each of these projects (the ones still there). */
    cardsOf: async (ids: string[]): Promise<ProjectCard[]> =>
      ids.length ? db.read((q) => q.select({ id: projects.id, slug: projects.slug, name: projects.name }).from(projects).where(inArray(projects.id, ids))) : [],

    /** Takes `n` deleted reports off the project's live-report counter (never below 0). */
    dropLiveReports: (id: string, n: number) =>
      db.write(async (q) => void (await q.update(projects).set({ liveReportCount: sql`CASE WHEN ${projects.liveReportCount} > ${n} THEN ${projects.liveReportCount} - ${n} ELSE 0 END` }).where(eq(projects.id, id)))),

    /** The whole project row with this slug (the request guard's), or undefined. */
    rowBySlug: async (slug: string): Promise<typeof projects.$inferSelect | undefined> => (await db.read((q) => rowBySlugOf(q).execute({ slug })))[0],

    /** The project an old slug redirects to (its id, current slug and account) while the redirect lasts, or undefined. */
    movedTo: async (slug: string, now: Date): Promise<{ id: string; slug: string; accountId: string } | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select({ id: projects.id, slug: projects.slug, accountId: projects.accountId })
          .from(projectSlugRedirects)
          .innerJoin(projects, eq(projects.id, projectSlugRedirects.projectId))
          .where(liveRedirect(eq(projectSlugRedirects.slug, slug), now))
          .limit(1),
      )
      return row
    },

    /** Records when the project's first play session started (the setup checklist); a later one changes nothing. */
    markFirstSession: (id: string, at: Date) => db.write((q) => q.update(projects).set({ firstSessionAt: at }).where(and(eq(projects.id, id), isNull(projects.firstSessionAt)))),

    /** Whether a public project has this DSN id (Sentry's routes check it before reading a body). */
    publicDsn: async (dsnId: number): Promise<boolean> =>
      (await db.read((q) => q.select({ id: projects.id }).from(projects).where(and(eq(projects.dsnId, dsnId), eq(projects.isPublic, true))).limit(1))).length > 0,

    /** The project an SDK key names: by its current key, or by the key before while its grace runs past `now`. */
    bySdkKey: async (key: string, now: Date): Promise<typeof projects.$inferSelect | undefined> =>
      (await db.read((q) => q.select().from(projects).where(eq(projects.apiKey, key)).limit(1)))[0] ??
      (await db.read((q) => q.select().from(projects).where(and(eq(projects.previousApiKey, key), gt(projects.previousApiKeyExpiresAt, now))).limit(1)))[0],

    /** The projects of these accounts (id, account, name, slug, creation), oldest first. */
    inAccounts: async (accountIds: string[]) =>
      accountIds.length
        ? db.read((q) =>
            q
              .select({ id: projects.id, accountId: projects.accountId, name: projects.name, slug: projects.slug, createdAt: projects.createdAt })
              .from(projects)
              .where(inArray(projects.accountId, accountIds))
              .orderBy(asc(projects.createdAt)),
          )
        : [],

    /** Ids of every project. */
    allIds: async (): Promise<string[]> => (await db.read((q) => q.select({ id: projects.id }).from(projects))).map((r) => r.id),
  }
}

/** What messages about a project name it by: its id, slug and name. */
export interface ProjectCard {
  id: string
  slug: string
  name: string
}

/** The request guard's lookup, on every project route: prepared once per connection (a one-time query rebuilds its SQL each time). */
const rowBySlugOf = preparedPerConnection((q: Query) => q.select().from(projects).where(eq(projects.slug, sql.placeholder('slug'))).limit(1).prepare())

const prepareCard = (q: Query) => q.select({ id: projects.id, slug: projects.slug, name: projects.name }).from(projects).where(eq(projects.id, sql.placeholder('id'))).prepare()
const cardOf = preparedPerConnection(prepareCard)

/**
 * A project's id, slug and name, or undefined. Prepared once per connection: event subscribers and
 * alert hooks read it inside the emitter's write, on report writes that have a webhook, integration
 * or chat channel to serve.
 */
export async function projectCardOf(db: Seam, id: string): Promise<ProjectCard | undefined> {
  const rows = await db.read((q) => cardOf(q).execute({ id }))
  return rows[0]
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>

/**
 * Every project's DSN id (`projects.dsn_id`, the number in `https://KEY@host/DSN_ID`): shipped game
 * builds keep their DSN for years, so an id is never given to a second project, even after the
 * first is deleted. `project_dsn_ids` hands them out (AUTOINCREMENT never reuses a value), and a
 * trigger gives one to every new project, whoever inserts it (the API, the CLI, tests, benchmarks).
 */
export const PROJECT_DSN_IDS_TABLE = 'project_dsn_ids'

export const projectDsnSql = [
  `CREATE TABLE IF NOT EXISTS project_dsn_ids (dsn_id INTEGER PRIMARY KEY AUTOINCREMENT, project_id TEXT NOT NULL)`,
  `CREATE TRIGGER IF NOT EXISTS projects_dsn_id_ai AFTER INSERT ON projects WHEN new.dsn_id IS NULL BEGIN
    INSERT INTO project_dsn_ids (project_id) VALUES (new.id);
    UPDATE projects SET dsn_id = (SELECT max(dsn_id) FROM project_dsn_ids) WHERE id = new.id;
  END`,
]

/** Gives the projects of a database from before DSN ids theirs, oldest project first (ids are handed out in insert order). */
export const projectDsnIdsBackfill: Backfill = {
  sql: [
    'INSERT INTO project_dsn_ids (project_id) SELECT id FROM projects WHERE dsn_id IS NULL ORDER BY created_at, rowid',
    'UPDATE projects SET dsn_id = (SELECT max(d.dsn_id) FROM project_dsn_ids d WHERE d.project_id = projects.id) WHERE dsn_id IS NULL',
  ],
}
