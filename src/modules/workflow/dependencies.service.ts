import { and, asc, eq, inArray, or } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { badRequest, conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordActivity } from '../activity/activity.service'
import { findLiveReport } from '../reports/reports.read'
import { reports } from '../reports/reports.table'
import type { DependencyBody } from './workflow.schemas'
import { reportDependencies } from './workflow.table'

type Deps = Pick<AppDeps, 'db' | 'clock'>

/** A link seen from one report: `blocks` (this report blocks the other) or `blocked_by`. */
export interface DependencyView {
  id: string
  relationship: 'blocks' | 'blocked_by'
  report: { id: string; number: number; title: string; status: string }
  created_at: string
}

/** Every live link of `reportId`, each seen from its side. */
export function dependenciesOf(db: DbOrTx, reportId: string): DependencyView[] {
  const links = db
    .select()
    .from(reportDependencies)
    .where(or(eq(reportDependencies.blockerId, reportId), eq(reportDependencies.blockedId, reportId)))
    .orderBy(asc(reportDependencies.createdAt), asc(reportDependencies.id))
    .all()
  if (links.length === 0) return []
  const otherIds = links.map((l) => (l.blockerId === reportId ? l.blockedId : l.blockerId))
  const others = new Map(
    db
      .select({ id: reports.id, number: reports.reportNumber, title: reports.title, status: reports.status, deletedAt: reports.deletedAt })
      .from(reports)
      .where(inArray(reports.id, otherIds))
      .all()
      .filter((r) => !r.deletedAt)
      .map((r) => [r.id, r]),
  )
  return links.flatMap((l) => {
    const blocks = l.blockerId === reportId
    const other = others.get(blocks ? l.blockedId : l.blockerId)
    if (!other) return []
    return [{ id: l.id, relationship: blocks ? 'blocks' : 'blocked_by', report: { id: other.id, number: other.number, title: other.title, status: other.status }, created_at: l.createdAt.toISOString() } as DependencyView]
  })
}

/**
 * The chain of report numbers from `from` to `to` following "blocks" links, or null. Walks breadth
 * first over the project's links (a project's link graph is small next to its reports).
 */
function blockingChain(db: DbOrTx, projectId: string, from: string, to: string): string[] | null {
  const edges = db.select({ a: reportDependencies.blockerId, b: reportDependencies.blockedId }).from(reportDependencies).where(eq(reportDependencies.projectId, projectId)).all()
  const next = new Map<string, string[]>()
  for (const e of edges) next.set(e.a, [...(next.get(e.a) ?? []), e.b])
  const parent = new Map<string, string>([[from, from]])
  const queue = [from]
  while (queue.length) {
    const node = queue.shift()!
    if (node === to) {
      const path = [to]
      while (path[0] !== from) path.unshift(parent.get(path[0]!)!)
      return path
    }
    for (const n of next.get(node) ?? []) if (!parent.has(n)) (parent.set(n, node), queue.push(n))
  }
  return null
}

/** `POST /bugs/{number}/dependencies`: links two reports of one project; 400 on self-links and cycles, 409 on duplicates. */
export function addDependency(deps: Deps, project: { id: string }, userId: string, rawNumber: string, body: DependencyBody): DependencyView {
  return deps.db.transaction((tx) => {
    const report = findLiveReport(tx, project.id, rawNumber)
    if (body.related_number === report.reportNumber) throw badRequest('a report cannot depend on itself')
    const related = tx
      .select()
      .from(reports)
      .where(and(eq(reports.projectId, project.id), eq(reports.reportNumber, body.related_number)))
      .get()
    if (!related || related.deletedAt) throw notFound(`report #${body.related_number} not found in this project`)
    const [blocker, blocked] = body.relationship === 'blocks' ? [report, related] : [related, report]
    const existing = tx
      .select({ id: reportDependencies.id })
      .from(reportDependencies)
      .where(and(eq(reportDependencies.blockerId, blocker.id), eq(reportDependencies.blockedId, blocked.id)))
      .get()
    if (existing) throw conflict(`#${blocker.reportNumber} already blocks #${blocked.reportNumber}`)
    // blocker → blocked closes a cycle when blocked already (transitively) blocks blocker.
    const chain = blockingChain(tx, project.id, blocked.id, blocker.id)
    if (chain) {
      const numbers = new Map([[blocker.id, blocker.reportNumber], [blocked.id, blocked.reportNumber]])
      const rows = tx.select({ id: reports.id, n: reports.reportNumber }).from(reports).where(inArray(reports.id, chain)).all()
      for (const r of rows) numbers.set(r.id, r.n)
      const text = chain.map((id) => `#${numbers.get(id)}`).join(' blocks ')
      throw badRequest(`that link would make a cycle: #${blocker.reportNumber} blocks ${text}`)
    }
    const now = deps.clock.now()
    const id = newId()
    tx.insert(reportDependencies).values({ id, projectId: project.id, blockerId: blocker.id, blockedId: blocked.id, createdBy: userId, createdAt: now }).run()
    recordActivity(tx, now, [
      { projectId: project.id, reportId: blocker.id, actorId: userId, action: 'dependency_added', field: 'blocks', newValue: `#${blocked.reportNumber}` },
      { projectId: project.id, reportId: blocked.id, actorId: userId, action: 'dependency_added', field: 'blocked_by', newValue: `#${blocker.reportNumber}` },
    ])
    return dependenciesOf(tx, report.id).find((d) => d.id === id)!
  })
}

/** `DELETE /dependencies/{depId}`: removes a link of the project; 404 for another project's link. */
export function removeDependency(deps: Deps, project: { id: string }, userId: string, depId: string): void {
  deps.db.transaction((tx) => {
    const link = tx
      .select()
      .from(reportDependencies)
      .where(and(eq(reportDependencies.id, depId), eq(reportDependencies.projectId, project.id)))
      .get()
    if (!link) throw notFound('dependency not found')
    tx.delete(reportDependencies).where(eq(reportDependencies.id, depId)).run()
    const numbers = new Map(tx.select({ id: reports.id, n: reports.reportNumber }).from(reports).where(inArray(reports.id, [link.blockerId, link.blockedId])).all().map((r) => [r.id, r.n]))
    const now = deps.clock.now()
    recordActivity(tx, now, [
      { projectId: project.id, reportId: link.blockerId, actorId: userId, action: 'dependency_removed', field: 'blocks', oldValue: `#${numbers.get(link.blockedId)}` },
      { projectId: project.id, reportId: link.blockedId, actorId: userId, action: 'dependency_removed', field: 'blocked_by', oldValue: `#${numbers.get(link.blockerId)}` },
    ])
  })
}
