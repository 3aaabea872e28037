import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { reports } from '../reports/reports.table'

const statements = new WeakMap<Db, ReturnType<typeof prepare>>()

function prepare(db: Db) {
  return db
    .select({ id: reports.id, projectId: reports.projectId })
    .from(reports)
    .where(and(eq(reports.id, sql.placeholder('id')), eq(reports.projectId, sql.placeholder('projectId')), isNull(reports.deletedAt)))
    .prepare()
}

/** The live report `id` of the project, for the SDK routes that name one (attachments, perf samples, replays); undefined otherwise. */
export function liveSdkReport(db: Db, projectId: string, id: string) {
  let st = statements.get(db)
  if (!st) statements.set(db, (st = prepare(db)))
  return st.get({ id, projectId })
}
