import type { AppDeps } from '../../app-deps'
import { badRequest, describeIssues } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordActivity } from '../activity/activity.service'
import { insertReport, reserveReport } from '../reports/reports.service'
import { createReportsRepository } from '../reports/reports.repository'
import { itemsFromCsv } from './import.csv'
import { type ImportItem, importBody, importItem } from './import.schemas'
import { createWorkflowRepository } from './workflow.repository'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'events'>

const importsOf = (deps: Pick<AppDeps, 'db'>) => createWorkflowRepository({ db: deps.db })

export interface ImportResult {
  created: number
  skipped: number
  errors: { index: number; error: string }[]
  /** The report numbers given, in item order (skipped and failed items have none). */
  report_numbers: number[]
}

/** The items of a request: a JSON `{bugs: [...]}` or a CSV text (ours, GitHub's or Jira's export). */
export function importItemsOf(body: unknown): unknown[] {
  if (typeof body === 'string') return itemsFromCsv(body).items
  const parsed = importBody.safeParse(body)
  if (!parsed.success) throw badRequest(describeIssues(parsed.error.issues))
  return parsed.data.bugs
}

/**
 * `POST /import`: up to 1,000 reports in one transaction, numbered in item order. Idempotent on
 * `external_id` (an id already imported into the project, or repeated in the request, is skipped).
 * Sends no webhook or mail per report and records one activity entry for the whole import.
 */
export async function importReports(deps: Deps, ctx: { project: { id: string; accountId: string }; userId: string }, raw: unknown[]): Promise<ImportResult> {
  const result: ImportResult = { created: 0, skipped: 0, errors: [], report_numbers: [] }
  const items: { index: number; item: ImportItem; externalId: string | null }[] = []
  raw.forEach((value, index) => {
    const parsed = importItem.safeParse(value)
    if (!parsed.success) return void result.errors.push({ index, error: describeIssues(parsed.error.issues) })
    // Well-formed as SQLite stores it (lone surrogates become U+FFFD), so the skip check below matches the stored ids.
    const externalId = parsed.data.external_id === null || parsed.data.external_id === undefined ? null : String(parsed.data.external_id).toWellFormed()
    items.push({ index, item: parsed.data, externalId })
  })
  const importId = newId()
  await deps.db.write(async (tx) => {
    const ids = items.map((i) => i.externalId).filter((x): x is string => x !== null)
    const known = await importsOf(deps).importedExternalIds(ctx.project.id, ids)
    for (const { item, externalId } of items) {
      if (externalId !== null && known.has(externalId)) {
        result.skipped++
        continue
      }
      const reserved = await reserveReport(deps, tx, ctx.project)
      const report = await insertReport(
        deps,
        tx,
        ctx.project,
        {
          title: item.title,
          description: item.description ?? '',
          priority: item.priority ?? undefined,
          category: item.category ?? undefined,
          platform: item.platform ?? undefined,
          gameVersion: item.game_version ?? undefined,
          stepsToReproduce: item.steps_to_reproduce ?? undefined,
          source: item.source ?? 'user',
          createdBy: ctx.userId,
        },
        reserved,
        { quiet: true },
      )
      if (item.status && item.status !== 'open') await createReportsRepository({ db: deps.db }).update(report.id, { status: item.status })
      await importsOf(deps).insertImport({ reportId: report.id, projectId: ctx.project.id, externalId, externalUrl: item.external_url ?? null, importId, importedBy: ctx.userId, importedAt: reserved.now })
      if (externalId !== null) known.add(externalId)
      result.created++
      result.report_numbers.push(report.reportNumber)
    }
    if (result.created > 0) {
      await recordActivity(tx, deps.clock.now(), [{ projectId: ctx.project.id, actorId: ctx.userId, action: 'imported', newValue: `${result.created} reports (#${result.report_numbers[0]}–#${result.report_numbers.at(-1)})` }])
    }
  })
  return result
}

/** `GET /imports`: imported reports (newest import first) with their external links. */
export async function listImports(deps: Pick<AppDeps, 'db'>, projectId: string, page: number) {
  const rows = await importsOf(deps).importsPage(projectId, page)
  return rows.map((r) => ({ report_number: r.number, title: r.title, status: r.status, external_id: r.externalId, external_url: r.externalUrl, import_id: r.importId, imported_at: r.importedAt.toISOString() }))
}
