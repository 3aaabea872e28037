import type { FileStorage } from '../../files/storage'
import type { Report } from './reports.service'
import { reports } from './reports.table'
import { parseVersions } from './report-versions'

export interface LabelView {
  id: string
  name: string
  color: string
}

/** Columns a list page needs; the full row (descriptions, metadata) is never read for lists. */
export const listColumns = {
  seq: reports.seq,
  id: reports.id,
  reportNumber: reports.reportNumber,
  title: reports.title,
  status: reports.status,
  priority: reports.priority,
  category: reports.category,
  platform: reports.platform,
  gameVersion: reports.gameVersion,
  assignedTo: reports.assignedTo,
  isPrivate: reports.isPrivate,
  errorType: reports.errorType,
  groupingLabel: reports.groupingLabel,
  level: reports.level,
  handled: reports.handled,
  source: reports.source,
  upvotes: reports.upvotes,
  occurrenceCount: reports.occurrenceCount,
  playerCount: reports.playerCount,
  firstSeen: reports.firstSeen,
  lastSeen: reports.lastSeen,
  firstVersion: reports.firstVersion,
  lastVersion: reports.lastVersion,
  versions: reports.versions,
  createdAt: reports.createdAt,
  updatedAt: reports.updatedAt,
}

export type ListRow = Pick<Report, keyof typeof listColumns>

/** A report as a list item. */
export function listItemView(r: ListRow, labels: LabelView[]) {
  return {
    id: r.id,
    report_number: r.reportNumber,
    title: r.title,
    status: r.status,
    priority: r.priority,
    category: r.category,
    platform: r.platform,
    game_version: r.gameVersion,
    assigned_to: r.assignedTo,
    is_private: r.isPrivate,
    error_type: r.errorType,
    ...severityView(r),
    source: r.source,
    upvotes: r.upvotes,
    ...countsView(r),
    labels,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }
}

/** The client's severity and whether the exception was handled (`handled: false` once any occurrence was not: ingest/crash.ts), when a client said. */
function severityView(r: Pick<Report, 'level' | 'handled'>) {
  return { ...(r.level !== null && { level: r.level }), ...(r.handled !== null && { handled: r.handled }) }
}

/** How many submissions a report grouped, from how many players, since when and in which versions. */
function countsView(r: Pick<Report, 'occurrenceCount' | 'playerCount' | 'firstSeen' | 'lastSeen' | 'firstVersion' | 'lastVersion' | 'versions' | 'createdAt'>) {
  return {
    occurrences: r.occurrenceCount,
    occurrence_count: r.occurrenceCount,
    player_count: r.playerCount,
    first_seen: (r.firstSeen ?? r.createdAt).toISOString(),
    last_seen: (r.lastSeen ?? r.createdAt).toISOString(),
    first_version: r.firstVersion,
    last_version: r.lastVersion,
    versions: parseVersions(r.versions),
  }
}

/** The full report record of `GET /bugs/{number}`. */
export function reportView(r: Report, labels: LabelView[], files: Pick<FileStorage, 'url'>) {
  return {
    id: r.id,
    report_number: r.reportNumber,
    title: r.title,
    description: r.description,
    status: r.status,
    priority: r.priority,
    category: r.category,
    platform: r.platform,
    game_version: r.gameVersion,
    os_info: r.osInfo,
    device_info: r.deviceInfo,
    steps_to_reproduce: r.stepsToReproduce,
    expected_behavior: r.expectedBehavior,
    actual_behavior: r.actualBehavior,
    assigned_to: r.assignedTo,
    is_private: r.isPrivate,
    error_type: r.errorType,
    ...severityView(r),
    source: r.source,
    upvotes: r.upvotes,
    ...countsView(r),
    sentiment_score: r.sentimentScore,
    sentiment_level: r.sentimentLevel,
    reporter_name: r.reporterName,
    reporter_email: r.reporterEmail,
    player_id: r.playerId,
    steam_id: r.playerId,
    metadata: r.metadata ?? null,
    screenshot_url: r.screenshotKey ? files.url(r.screenshotKey) : null,
    labels,
    created_by: r.createdBy,
    due_date: r.dueDate ? r.dueDate.toISOString() : null,
    fingerprint: r.fingerprint,
    grouping_label: r.groupingLabel,
    resolved_in_version: r.resolvedInVersion,
    regressed_in_version: r.regressedInVersion,
    regressed_at: r.regressedAt ? r.regressedAt.toISOString() : null,
    merged_into: null,
    published: r.published,
    on_roadmap: r.onRoadmap,
    auto_filed: Boolean(r.autoFiled),
    triaged_at: r.triagedAt ? r.triagedAt.toISOString() : null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }
}
