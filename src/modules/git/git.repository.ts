import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { preparedPerConnection, type Query, type Seam } from '../../db/client'
import { gitConnections, gitIssueLinks } from './git.table'

export type GitConnection = typeof gitConnections.$inferSelect
export type GitIssueLink = typeof gitIssueLinks.$inferSelect
type ConnectionChanges = Partial<Pick<typeof gitConnections.$inferInsert, 'tokenEnc' | 'tokenHint' | 'autoCreateIssues' | 'updatedAt'>>
type AutoError = Pick<GitConnection, 'autoErrorMessage' | 'autoErrorReportNumber' | 'autoErrorAt'>

/** Every read and write of git_connections and git_issue_links, as async functions over the database seam. */
export function createGitRepository({ db }: { db: Seam }) {
  const linkOf = async (reportId: string): Promise<GitIssueLink | undefined> => {
    const [row] = await db.read((q) => q.select().from(gitIssueLinks).where(eq(gitIssueLinks.reportId, reportId)).limit(1))
    return row
  }
  return {
    /** The project's repository connection, or undefined. */
    connectionOf: async (projectId: string): Promise<GitConnection | undefined> => {
      const [row] = await db.read((q) => q.select().from(gitConnections).where(eq(gitConnections.projectId, projectId)).limit(1))
      return row
    },

    insertConnection: (row: typeof gitConnections.$inferInsert) => db.write((q) => q.insert(gitConnections).values(row)),

    updateConnection: (id: string, changes: ConnectionChanges) => db.write((q) => q.update(gitConnections).set(changes).where(eq(gitConnections.id, id))),

    removeConnection: (id: string) => db.write((q) => q.delete(gitConnections).where(eq(gitConnections.id, id))),

    /** Keeps why the last automatic issue failed on the connection (all null once one succeeds). */
    setAutoError: (id: string, error: AutoError) => db.write((q) => q.update(gitConnections).set(error).where(eq(gitConnections.id, id))),

    /** Forgets the last automatic-issue failure, writing nothing when there is none. */
    clearAutoError: (id: string) =>
      db.write((q) =>
        q
          .update(gitConnections)
          .set({ autoErrorMessage: null, autoErrorReportNumber: null, autoErrorAt: null })
          .where(and(eq(gitConnections.id, id), isNotNull(gitConnections.autoErrorMessage))),
      ),

    /** The issue linked to a report, or undefined. */
    linkOf,

    /** Links a report to an issue unless it is linked already; the report's link either way. */
    saveLink: async (row: typeof gitIssueLinks.$inferInsert): Promise<GitIssueLink> =>
      db.write(async (q) => {
        await q.insert(gitIssueLinks).values(row).onConflictDoNothing()
        return (await linkOf(row.reportId))!
      }),

    /** Removes a report's issue link; false when it had none. */
    removeLink: async (reportId: string): Promise<boolean> => {
      const gone = await db.write((q) => q.delete(gitIssueLinks).where(eq(gitIssueLinks.reportId, reportId)).returning({ id: gitIssueLinks.id }))
      return gone.length > 0
    },

    /** Moves one issue link of the `fromIds` reports onto report `toId` (a merge), unless it has one: one issue per report. */
    moveLink: (fromIds: string[], toId: string) =>
      db.write(async (q) => {
        if ((await q.select({ id: gitIssueLinks.id }).from(gitIssueLinks).where(eq(gitIssueLinks.reportId, toId)).limit(1)).length > 0) return
        const first = (await q.select({ id: gitIssueLinks.id }).from(gitIssueLinks).where(inArray(gitIssueLinks.reportId, fromIds)).orderBy(gitIssueLinks.createdAt, gitIssueLinks.id).limit(1))[0]
        if (first) await q.update(gitIssueLinks).set({ reportId: toId }).where(eq(gitIssueLinks.id, first.id))
      }),
  }
}

const prepareAutoOn = (q: Query) =>
  q
    .select({ id: gitConnections.id })
    .from(gitConnections)
    .where(and(eq(gitConnections.projectId, sql.placeholder('projectId')), eq(gitConnections.autoCreateIssues, true)))
    .prepare()

const autoOnOf = preparedPerConnection(prepareAutoOn)

/**
 * Whether the project's repository files issues automatically. Prepared once per connection: event
 * subscribers run inside every report write, and most projects have no repository.
 */
export async function autoIssuesOn(db: Seam, projectId: string): Promise<boolean> {
  const rows = await db.read((q) => autoOnOf(q).execute({ projectId }))
  return rows.length > 0
}
