import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm'
import { onPostgres, preparedPerConnection, type Query, type Seam } from '../../db/client'
import { inJsonList } from '../../db/portable-sql'
import { chunks, ID_CHUNK } from '../../lib/chunks'
import { labels, reportLabels } from './labels.table'

export type Label = typeof labels.$inferSelect

const labelOf = (projectId: string, labelId: string) => and(eq(labels.projectId, projectId), eq(labels.id, labelId))

/** The labels of a list page's reports, by the page's ids as one JSON parameter (every page size, one statement). */
const labelsOfReports = preparedPerConnection((q: Query) =>
  q
    .select({ reportId: reportLabels.reportId, id: labels.id, name: labels.name, color: labels.color })
    .from(reportLabels)
    .innerJoin(labels, eq(labels.id, reportLabels.labelId))
    .where(inJsonList(onPostgres(q), reportLabels.reportId, sql.placeholder('ids')))
    .orderBy(asc(labels.name))
    .prepare(),
)

/** Every read and write of labels and report_labels, as async functions over the database seam. */
export function createLabelsRepository({ db }: { db: Seam }) {
  return {
    /** The project's labels, by name. */
    list: (projectId: string) => db.read((q) => q.select().from(labels).where(eq(labels.projectId, projectId)).orderBy(asc(labels.name))),

    /** One label of the project, or undefined. */
    find: async (projectId: string, labelId: string): Promise<Label | undefined> => {
      const [row] = await db.read((q) => q.select().from(labels).where(labelOf(projectId, labelId)).limit(1))
      return row
    },

    /** Whether another label of the project has this name, case aside (names are unique regardless of case). */
    nameTaken: async (projectId: string, name: string, exceptId?: string): Promise<boolean> => {
      const rows = await db.read((q) =>
        q
          .select({ id: labels.id })
          .from(labels)
          .where(and(eq(labels.projectId, projectId), sql`lower(${labels.name}) = lower(${name})`, exceptId ? ne(labels.id, exceptId) : undefined))
          .limit(1),
      )
      return rows.length > 0
    },

    insert: (row: typeof labels.$inferInsert) => db.write((q) => q.insert(labels).values(row)),

    update: (labelId: string, changes: Pick<Label, 'name' | 'color'>) => db.write((q) => q.update(labels).set(changes).where(eq(labels.id, labelId))),

    /** Deletes a label; the foreign key takes it off every report. */
    remove: (labelId: string) => db.write((q) => q.delete(labels).where(eq(labels.id, labelId))),

    /** Puts a label on a report; false when it was already there. */
    attach: async (report: { id: string; seq: number }, labelId: string): Promise<boolean> => {
      const added = await db.write((q) =>
        q.insert(reportLabels).values({ reportId: report.id, reportSeq: report.seq, labelId }).onConflictDoNothing().returning({ labelId: reportLabels.labelId }),
      )
      return added.length > 0
    },

    /** Puts a label on many reports (a bulk action); the ids of those that did not have it yet. */
    attachMany: async (reports: { id: string; seq: number }[], labelId: string): Promise<string[]> => {
      const added: string[] = []
      // Three parameters a row: a third of the id chunk keeps each INSERT under both engines' bound.
      for (const part of chunks(reports, Math.floor(ID_CHUNK / 3))) {
        const rows = await db.write((q) =>
          q
            .insert(reportLabels)
            .values(part.map((r) => ({ reportId: r.id, reportSeq: r.seq, labelId })))
            .onConflictDoNothing()
            .returning({ reportId: reportLabels.reportId }),
        )
        added.push(...rows.map((r) => r.reportId))
      }
      return added
    },

    /** Takes a label off many reports (a bulk action); the ids of those that had it. */
    detachMany: async (reportIds: string[], labelId: string): Promise<string[]> => {
      const removed: string[] = []
      for (const part of chunks(reportIds)) {
        const rows = await db.write((q) =>
          q
            .delete(reportLabels)
            .where(and(eq(reportLabels.labelId, labelId), inArray(reportLabels.reportId, part)))
            .returning({ reportId: reportLabels.reportId }),
        )
        removed.push(...rows.map((r) => r.reportId))
      }
      return removed
    },

    /** Takes a label off a report; false when it was not there. */
    detach: async (reportId: string, labelId: string): Promise<boolean> => {
      const removed = await db.write((q) =>
        q.delete(reportLabels).where(and(eq(reportLabels.reportId, reportId), eq(reportLabels.labelId, labelId))).returning({ labelId: reportLabels.labelId }),
      )
      return removed.length > 0
    },

    /** The labels of these reports in one query, by name: `{reportId, id, name, color}` rows. */
    ofReports: (reportIds: string[]) => db.read((q) => labelsOfReports(q).execute({ ids: JSON.stringify(reportIds) })),

    /** Puts the labels of the `fromIds` reports on report `to` as well (merge); those it has already are left. */
    copyToReport: (fromIds: string[], to: { id: string; seq: number }) =>
      db.write((q) =>
        q
          .insert(reportLabels)
          .select(
            q
              .selectDistinct({ reportId: sql<string>`${to.id}`.as('report_id'), reportSeq: sql<number>`${to.seq}`.as('report_seq'), labelId: reportLabels.labelId })
              .from(reportLabels)
              .where(inArray(reportLabels.reportId, fromIds)),
          )
          .onConflictDoNothing(),
      ),
  }
}
