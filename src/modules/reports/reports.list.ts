import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import type { SelectedFields } from 'drizzle-orm/sqlite-core'
import type { Db } from '../../db/client'
import { labels, reportLabels } from '../labels/labels.table'
import { type SlaState, slaOfReports, slaStateSql } from '../workflow/sla.service'
import { translateSearch } from './fts-query'
import { reportsFts } from './reports.fts'
import { type Category, type Priority, PRIORITIES, reports, type Status } from './reports.table'
import { type LabelView, listColumns, listItemView } from './reports.views'

export const LIST_PAGE_SIZE = 25

/**
 * Filtered totals are counted up to this many matching rows and no further, so a filter that
 * matches most of a 1M-report project costs a bounded index walk, not a full COUNT. Past it the
 * answer says `total: 10000, total_capped: true` (400 pages of 25). Unfiltered totals are exact,
 * from the project's maintained live-report counter.
 */
export const COUNT_CAP = 10_000

export type ListSort = 'newest' | 'priority' | 'upvotes' | 'updated' | 'due' | 'last_seen' | 'occurrences' | 'players'

/** Statuses that count as done: a done blocker no longer blocks, a done report is never overdue. */
const DONE_STATUSES = sql.raw(`('resolved','closed','wont_fix')`)

export interface ListFilters {
  status?: Status
  priority?: Priority
  category?: Category
  /** A user id, or `unassigned`. */
  assignedTo?: string
  label?: string
  source?: 'user' | 'system'
  errorType?: string
  q?: string
  /** Only reports with an unresolved blocker. */
  blocked?: boolean
  /** Only reports due before `now` and not done. */
  overdue?: boolean
  /** Only reports whose select custom field has this option. */
  customField?: { fieldId: string; option: string }
  /** Only reports whose SLA clock is in this state. */
  sla?: SlaState
  sort?: ListSort
  page: number
  /** The clock's time, for `overdue`. */
  now?: Date
}

/** Which filters are present: one prepared statement pair per shape, built on first use. */
interface Shape {
  status: boolean
  priority: boolean
  category: boolean
  assignee: 'id' | 'unassigned' | null
  label: boolean
  source: boolean
  errorType: boolean
  /**
   * `match`: the FTS table drives the join (newest first for free; other sorts sort the matches).
   * `matchSet`: the sort's index drives and each row is checked against the set of matches — used
   * when a term matches more than COUNT_CAP reports and the sort is not "newest", so a common word
   * never means sorting hundreds of thousands of rows. `exclude`: only `-terms` were given.
   */
  q: 'match' | 'matchSet' | 'exclude' | null
  blocked: boolean
  overdue: boolean
  customField: boolean
  sla: SlaState | null
  /** sort=due reads dated reports in due order, then undated ones newest first (two index walks). */
  dated: 'yes' | 'no' | null
  sort: ListSort
}

const ph = sql.placeholder

function conditions(db: Db, s: Shape): SQL[] {
  // With a label the label's links drive (a label belongs to one project, so they are few compared
  // to the project); `+project_id` keeps SQLite from walking a project index and probing every row.
  const project = s.label ? sql`+${reports.projectId} = ${ph('projectId')}` : eq(reports.projectId, ph('projectId'))
  const c: SQL[] = [project, isNull(reports.deletedAt)]
  if (s.status) c.push(eq(reports.status, ph('status')))
  // By rank, so the (status, priority_rank) and priority indexes serve the filter.
  if (s.priority) c.push(eq(reports.priorityRank, ph('priorityRank')))
  if (s.category) c.push(eq(reports.category, ph('category')))
  if (s.assignee === 'id') c.push(eq(reports.assignedTo, ph('assignedTo')))
  if (s.assignee === 'unassigned') c.push(isNull(reports.assignedTo))
  if (s.label) c.push(inArray(reports.seq, db.select({ seq: reportLabels.reportSeq }).from(reportLabels).where(eq(reportLabels.labelId, ph('label')))))
  if (s.source) c.push(eq(reports.source, ph('source')))
  if (s.errorType) c.push(eq(reports.errorType, ph('errorType')))
  if (s.blocked) {
    c.push(
      sql`${reports.id} IN (SELECT d.blocked_id FROM report_dependencies d JOIN reports b ON b.id = d.blocker_id WHERE d.project_id = ${ph('projectId')} AND b.deleted_at IS NULL AND b.status NOT IN ${DONE_STATUSES})`,
    )
  }
  if (s.overdue) c.push(sql`${reports.dueDate} < ${ph('now')} AND ${reports.status} NOT IN ${DONE_STATUSES}`)
  if (s.customField) c.push(sql`${reports.id} IN (SELECT report_id FROM custom_field_values WHERE field_id = ${ph('cfField')} AND text_value = ${ph('cfOption')})`)
  if (s.sla) c.push(sql`${reports.id} IN (SELECT report_id FROM report_sla WHERE project_id = ${ph('projectId')} AND ${slaStateSql(s.sla)})`)
  if (s.dated === 'yes') c.push(sql`${reports.dueDate} IS NOT NULL`)
  if (s.dated === 'no') c.push(sql`${reports.dueDate} IS NULL`)
  if (s.q === 'match') c.push(sql`${reportsFts} MATCH ${ph('match')}`)
  if (s.q === 'matchSet') c.push(sql`${reports.seq} IN (SELECT rowid FROM ${reportsFts} WHERE ${reportsFts} MATCH ${ph('match')})`)
  // Only `-terms`: rows at or above `minSeq` (a window of the newest, see `excludeWindow`) whose seq is
  // not among the matches in that window, so a common excluded word never means collecting all its matches.
  if (s.q === 'exclude') {
    c.push(sql`${reports.seq} >= ${ph('minSeq')}`)
    c.push(sql`${reports.seq} NOT IN (SELECT rowid FROM ${reportsFts} WHERE ${reportsFts} MATCH ${ph('match')} AND rowid >= ${ph('minSeq')})`)
  }
  return c
}

function ordering(s: Shape): SQL[] {
  // With a text search the FTS table drives the join; its rowid order is the report's seq order.
  const newest = s.q === 'match' ? desc(reportsFts.rowid) : desc(reports.seq)
  switch (s.sort) {
    case 'priority':
      return [asc(reports.priorityRank), desc(reports.seq)]
    case 'upvotes':
      return [desc(reports.upvotes), desc(reports.seq)]
    case 'updated':
      return [desc(reports.updatedAt), desc(reports.seq)]
    case 'last_seen':
      return [desc(reports.lastSeen), desc(reports.seq)]
    case 'occurrences':
      return [desc(reports.occurrenceCount), desc(reports.seq)]
    case 'players':
      return [desc(reports.playerCount), desc(reports.seq)]
    case 'due':
      return s.dated === 'yes' ? [asc(reports.dueDate), desc(reports.seq)] : [newest]
    default:
      return [newest]
  }
}

function buildStatements(db: Db, s: Shape) {
  const where = and(...conditions(db, s))
  // SQLite reorders inner joins: with a MATCH the FTS table becomes the outer loop.
  const from = <T extends SelectedFields>(columns: T) => {
    const q = db.select(columns).from(reports).$dynamic()
    return s.q === 'match' ? q.innerJoin(reportsFts, eq(reportsFts.rowid, reports.seq)) : q
  }
  const page = from(listColumns)
    .where(where)
    .orderBy(...ordering(s))
    .limit(ph('limit'))
    .offset(ph('offset'))
    .prepare()
  // Ordered like the default page, so the walk uses the live-rows index (or the FTS rowid order).
  const matching = from({ one: sql`1` })
    .where(where)
    .orderBy(...ordering({ ...s, sort: 'newest' }))
    .limit(COUNT_CAP + 1)
    .as('matching')
  const count = db.select({ n: sql<number>`count(*)` }).from(matching).prepare()
  return { page, count }
}

const labelsOfReports = (db: Db) =>
  db
    .select({ reportId: reportLabels.reportId, id: labels.id, name: labels.name, color: labels.color })
    .from(reportLabels)
    .innerJoin(labels, eq(labels.id, reportLabels.labelId))
    .where(sql`${reportLabels.reportId} IN (SELECT value FROM json_each(${ph('ids')}))`)
    .orderBy(asc(labels.name))
    .prepare()

const shapeStatements = new WeakMap<Db, Map<string, ReturnType<typeof buildStatements>>>()
const labelStatements = new WeakMap<Db, ReturnType<typeof labelsOfReports>>()

function statementsFor(db: Db, s: Shape) {
  let shapes = shapeStatements.get(db)
  if (!shapes) shapeStatements.set(db, (shapes = new Map()))
  const key = JSON.stringify(s)
  let pair = shapes.get(key)
  if (!pair) shapes.set(key, (pair = buildStatements(db, s)))
  return pair
}

/** Labels of many reports in one query, grouped by report id. */
export function labelsByReport(db: Db, reportIds: string[]): Map<string, LabelView[]> {
  const out = new Map<string, LabelView[]>()
  if (reportIds.length === 0) return out
  let st = labelStatements.get(db)
  if (!st) labelStatements.set(db, (st = labelsOfReports(db)))
  for (const row of st.all({ ids: JSON.stringify(reportIds) })) {
    const list = out.get(row.reportId) ?? []
    list.push({ id: row.id, name: row.name, color: row.color })
    out.set(row.reportId, list)
  }
  return out
}

const nthNewestLive = (db: Db) =>
  db
    .select({ seq: reports.seq })
    .from(reports)
    .where(and(eq(reports.projectId, ph('projectId')), isNull(reports.deletedAt)))
    .orderBy(desc(reports.seq))
    .limit(1)
    .offset(ph('skip'))
    .prepare()
const nthStatements = new WeakMap<Db, ReturnType<typeof nthNewestLive>>()

/**
 * The lowest seq an exclusion-only list (newest first) needs to look at: a window of the project's
 * newest live reports holding more than COUNT_CAP rows without the excluded words (and matching the
 * other filters), which settles both the capped total and any page up to the cap. It starts at twice
 * that many reports and grows fourfold; 0 (the whole project) once it reaches the oldest report or
 * for pages past the cap. `countFrom(minSeq)` is the list's bounded count with the window applied.
 */
function excludeWindow(db: Db, projectId: string, countFrom: (minSeq: number) => number, offset: number): number {
  if (offset + LIST_PAGE_SIZE > COUNT_CAP + 1) return 0
  let st = nthStatements.get(db)
  if (!st) nthStatements.set(db, (st = nthNewestLive(db)))
  for (let span = (COUNT_CAP + 1) * 2; ; span *= 4) {
    const edge = st.get({ projectId, skip: span - 1 })
    if (!edge) return 0
    if (countFrom(edge.seq) > COUNT_CAP) return edge.seq
  }
}

/**
 * A page in due order: dated reports earliest first, then undated ones newest first. Each part is one
 * index walk; the dated count (bounded by COUNT_CAP) tells where the undated part starts.
 */
function dueOrderPage(db: Db, shape: Shape, params: Record<string, unknown>, offset: number) {
  const dated = statementsFor(db, { ...shape, dated: 'yes' })
  const rows = dated.page.all({ ...params, limit: LIST_PAGE_SIZE, offset })
  if (rows.length === LIST_PAGE_SIZE) return rows
  const datedCount = Math.min(dated.count.get(params)?.n ?? 0, COUNT_CAP)
  const rest = statementsFor(db, { ...shape, dated: 'no' }).page.all({ ...params, limit: LIST_PAGE_SIZE - rows.length, offset: Math.max(0, offset - datedCount) })
  return [...rows, ...rest]
}

/**
 * One page of a project's live reports. A `q` without a usable term (only punctuation, a lone `*`)
 * is ignored, as an empty search box would be.
 */
export function listReports(db: Db, project: { id: string; liveReportCount: number }, f: ListFilters) {
  const fts = f.q === undefined ? null : translateSearch(f.q)
  const ftsExpr = fts?.match ?? fts?.excludeOnly ?? null
  const shape: Shape = {
    status: f.status !== undefined,
    priority: f.priority !== undefined,
    category: f.category !== undefined,
    assignee: f.assignedTo === undefined ? null : f.assignedTo === 'unassigned' ? 'unassigned' : 'id',
    label: f.label !== undefined,
    source: f.source !== undefined,
    errorType: f.errorType !== undefined,
    q: fts?.match ? 'match' : fts?.excludeOnly ? 'exclude' : null,
    blocked: f.blocked === true,
    overdue: f.overdue === true,
    customField: f.customField !== undefined,
    sla: f.sla ?? null,
    dated: null,
    sort: f.sort ?? 'newest',
  }
  const params = {
    projectId: project.id,
    status: f.status,
    priorityRank: f.priority === undefined ? undefined : PRIORITIES.indexOf(f.priority),
    category: f.category,
    assignedTo: f.assignedTo,
    label: f.label,
    source: f.source,
    errorType: f.errorType,
    match: ftsExpr ?? undefined,
    now: f.overdue || f.sla ? (f.now ?? new Date()).getTime() : undefined,
    cfField: f.customField?.fieldId,
    cfOption: f.customField?.option,
  }
  const st = statementsFor(db, shape)
  const filtered = Object.entries(shape).some(([k, v]) => k !== 'sort' && k !== 'dated' && v !== false && v !== null)
  let total = project.liveReportCount
  let capped = false
  // The window's own count is the answer's total when a window was found; it is kept, not rerun.
  let windowCount: number | null = null
  if (shape.q === 'exclude') {
    const countFrom = (minSeq: number) => (windowCount = st.count.get({ ...params, minSeq })?.n ?? 0)
    const minSeq = shape.sort === 'newest' ? excludeWindow(db, project.id, countFrom, (f.page - 1) * LIST_PAGE_SIZE) : 0
    if (minSeq === 0) windowCount = null
    Object.assign(params, { minSeq })
  }
  if (filtered) {
    const n = windowCount ?? st.count.get(params)?.n ?? 0
    capped = n > COUNT_CAP
    total = Math.min(n, COUNT_CAP)
  }
  const pageOf = capped && shape.q === 'match' && shape.sort !== 'newest' ? statementsFor(db, { ...shape, q: 'matchSet' }) : st
  const offset = (f.page - 1) * LIST_PAGE_SIZE
  const rows = shape.sort === 'due' ? dueOrderPage(db, shape, params, offset) : pageOf.page.all({ ...params, limit: LIST_PAGE_SIZE, offset })
  const labelMap = labelsByReport(
    db,
    rows.map((r) => r.id),
  )
  const slas = slaOfReports(
    db,
    rows.map((r) => r.id),
    f.now ?? new Date(),
  )
  return {
    bugs: rows.map((r) => ({ ...listItemView(r, labelMap.get(r.id) ?? []), sla: slas.get(r.id) ?? null })),
    total,
    total_capped: capped,
    page: f.page,
    limit: LIST_PAGE_SIZE,
    total_pages: Math.ceil(total / LIST_PAGE_SIZE),
  }
}
