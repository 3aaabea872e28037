import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { findLiveReport } from '../reports/reports.read'
import { integrationLinks, integrations } from './integrations.table'
import { providerInfo } from './providers/catalog'

/** What a connection's target is, for the tracker list (a Sentry project, a tracker's team or list). */
const targetOf = (config: Record<string, unknown>) => String(config.project ?? config.team_id ?? config.list_id ?? config.project_id ?? config.project_gid ?? config.board_id ?? config.database_id ?? config.table ?? '')

/**
 * `GET /bugs/{number}/issues`: the items linked to the report in other tools (tracker issues, the
 * crash tracker's issue) and the project's active tracker connections it can be filed through.
 */
export function reportIssues(db: DbOrTx, projectId: string, rawNumber: string) {
  const report = findLiveReport(db, projectId, rawNumber)
  const links = db
    .select()
    .from(integrationLinks)
    .where(eq(integrationLinks.reportId, report.id))
    .orderBy(integrationLinks.createdAt, sql`rowid`)
    .all()
    .map((l) => ({
      id: l.id,
      integration_id: l.integrationId,
      provider: l.provider,
      provider_name: providerInfo(l.provider)?.name ?? l.provider,
      external_id: l.externalId,
      url: l.url,
      title: l.title,
      state: l.state,
      created_at: l.createdAt.toISOString(),
    }))
  const trackers = db
    .select()
    .from(integrations)
    .where(and(eq(integrations.projectId, projectId), eq(integrations.isActive, true)))
    .orderBy(integrations.createdAt, sql`rowid`)
    .all()
    .filter((c) => providerInfo(c.provider)?.kind === 'tracker')
    .map((c) => ({ id: c.id, provider: c.provider, provider_name: providerInfo(c.provider)!.name, name: c.name, target: targetOf(c.config) }))
  return { links, trackers }
}
