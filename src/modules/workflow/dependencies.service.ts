import type { AppDeps } from '../../app-deps'
import { badRequest, conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordActivity } from '../activity/activity.service'
import { liveReport } from '../reports/project-reports'
import { createReportsRepository } from '../reports/reports.repository'
import { createDependenciesRepository, type DependencyView } from './dependencies.repository'
import type { DependencyBody } from './workflow.schemas'

type Deps = Pick<AppDeps, 'db' | 'clock'>

const linksOf = (deps: Pick<AppDeps, 'db'>) => createDependenciesRepository({ db: deps.db })

/** `GET /bugs/{number}/dependencies`: every live link of the report, each seen from its side. */
export async function readDependencies(deps: Pick<AppDeps, 'db'>, projectId: string, rawNumber: string): Promise<DependencyView[]> {
  return linksOf(deps).linksOf((await liveReport(deps.db, projectId, rawNumber)).id)
}

/**
 * The chain of report numbers from `from` to `to` following "blocks" links, or null. Walks breadth
 * first over the project's links (a project's link graph is small next to its reports).
 */
async function blockingChain(deps: Pick<AppDeps, 'db'>, projectId: string, from: string, to: string): Promise<string[] | null> {
  const edges = await linksOf(deps).edgesOf(projectId)
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
export async function addDependency(deps: Deps, project: { id: string }, userId: string, rawNumber: string, body: DependencyBody): Promise<DependencyView> {
  return deps.db.write(async (tx) => {
    const report = await liveReport(tx, project.id, rawNumber)
    if (body.related_number === report.reportNumber) throw badRequest('a report cannot depend on itself')
    const reports = createReportsRepository({ db: deps.db })
    const related = await reports.byNumber(project.id, body.related_number)
    if (!related || related.deletedAt) throw notFound(`report #${body.related_number} not found in this project`)
    const [blocker, blocked] = body.relationship === 'blocks' ? [report, related] : [related, report]
    if (await linksOf(deps).exists(blocker.id, blocked.id)) throw conflict(`#${blocker.reportNumber} already blocks #${blocked.reportNumber}`)
    // blocker → blocked closes a cycle when blocked already (transitively) blocks blocker.
    const chain = await blockingChain(deps, project.id, blocked.id, blocker.id)
    if (chain) {
      const numbers = new Map([[blocker.id, blocker.reportNumber], [blocked.id, blocked.reportNumber], ...(await reports.numbersOf(chain))])
      const text = chain.map((id) => `#${numbers.get(id)}`).join(' blocks ')
      throw badRequest(`that link would make a cycle: #${blocker.reportNumber} blocks ${text}`)
    }
    const now = deps.clock.now()
    const id = newId()
    await linksOf(deps).insert({ id, projectId: project.id, blockerId: blocker.id, blockedId: blocked.id, createdBy: userId, createdAt: now })
    await recordActivity(tx, now, [
      { projectId: project.id, reportId: blocker.id, actorId: userId, action: 'dependency_added', field: 'blocks', newValue: `#${blocked.reportNumber}` },
      { projectId: project.id, reportId: blocked.id, actorId: userId, action: 'dependency_added', field: 'blocked_by', newValue: `#${blocker.reportNumber}` },
    ])
    return (await linksOf(deps).linksOf(report.id)).find((d) => d.id === id)!
  })
}

/** `DELETE /dependencies/{depId}`: removes a link of the project; 404 for another project's link. */
export async function removeDependency(deps: Deps, project: { id: string }, userId: string, depId: string): Promise<void> {
  await deps.db.write(async (tx) => {
    const link = await linksOf(deps).find(project.id, depId)
    if (!link) throw notFound('dependency not found')
    await linksOf(deps).remove(depId)
    const numbers = await createReportsRepository({ db: deps.db }).numbersOf([link.blockerId, link.blockedId])
    const now = deps.clock.now()
    await recordActivity(tx, now, [
      { projectId: project.id, reportId: link.blockerId, actorId: userId, action: 'dependency_removed', field: 'blocks', oldValue: `#${numbers.get(link.blockedId)}` },
      { projectId: project.id, reportId: link.blockedId, actorId: userId, action: 'dependency_removed', field: 'blocked_by', oldValue: `#${numbers.get(link.blockerId)}` },
    ])
  })
}
