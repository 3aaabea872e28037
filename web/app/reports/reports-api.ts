/** The report routes the dashboard calls, typed; paths are relative to /api. */
import { api, projectPath } from '../api/client'
import type { EffectivePermissions, Roster } from '../api/types'
import type {
  ActivityEntry,
  Attachment,
  BulkDeleteBody,
  BulkDeleted,
  BulkUpdateBody,
  BulkUpdated,
  Created,
  CreateCommentBody,
  CreateLabelBody,
  ErrorTypeCount,
  FacetValues,
  Label,
  ListFilter,
  Merged,
  OccurrenceDistribution,
  OccurrencePage,
  ScreenshotList,
  ReportDetail,
  ReportListPage,
  ReportTagFacet,
  ReportTrend,
  SimilarReport,
  UpdateReportBody,
} from './report-types'
import { listApiPath, type ListQuery } from './list-query'

const bug = (slug: string, number: number, rest = '') => projectPath(slug, `/bugs/${number}${rest}`)

export const reportsApi = {
  list: (slug: string, query: ListQuery, signal?: AbortSignal) => api.get<ReportListPage>(listApiPath(slug, query), { signal }),
  read: (slug: string, number: number, signal?: AbortSignal) => api.get<ReportDetail>(bug(slug, number), { signal }),
  update: (slug: string, number: number, body: UpdateReportBody) => api.patch<{ message: string }>(bug(slug, number), body),
  bulkUpdate: (slug: string, body: BulkUpdateBody) => api.patch<BulkUpdated>(projectPath(slug, '/bugs/bulk'), body),
  bulkDelete: (slug: string, body: BulkDeleteBody) => api.delete<BulkDeleted>(projectPath(slug, '/bugs/bulk'), body),
  /** Folds the reports named by `numbers`, or every report `filter` selects, into report `number` (their numbers then lead to it). */
  merge: (slug: string, number: number, body: { numbers: number[] } | { filter: ListFilter }) => api.post<Merged>(bug(slug, number, '/merge'), body),
  facets: (slug: string) => api.get<FacetValues>(projectPath(slug, '/bugs/facets')),
  errorTypes: (slug: string) => api.get<ErrorTypeCount[]>(projectPath(slug, '/error-types')),
  similar: (slug: string, title: string, signal?: AbortSignal) => api.get<SimilarReport[]>(projectPath(slug, '/bugs/similar'), { query: { title }, signal }),
  activity: (slug: string, number: number, signal?: AbortSignal) => api.get<ActivityEntry[]>(bug(slug, number, '/activity'), { signal }),
  occurrences: (slug: string, number: number, q: { page?: number; order?: 'newest' | 'oldest'; perPage?: number }, signal?: AbortSignal) =>
    api.get<OccurrencePage>(bug(slug, number, '/occurrences'), { query: { page: q.page, order: q.order, per_page: q.perPage }, signal }),
  trend: (slug: string, number: number, signal?: AbortSignal) => api.get<ReportTrend>(bug(slug, number, '/trend'), { signal }),
  tags: (slug: string, number: number, signal?: AbortSignal) => api.get<ReportTagFacet>(bug(slug, number, '/tags'), { signal }),
  screenshots: (slug: string, number: number, signal?: AbortSignal) => api.get<ScreenshotList>(bug(slug, number, '/screenshots'), { signal }),
  distribution: (slug: string, number: number, signal?: AbortSignal) => api.get<OccurrenceDistribution>(bug(slug, number, '/occurrences/distribution'), { signal }),
  split: (slug: string, number: number, occurrenceIds: string[]) => api.post<Created>(bug(slug, number, '/split'), { occurrence_ids: occurrenceIds }),
  attachments: (slug: string, number: number, signal?: AbortSignal) => api.get<Attachment[]>(bug(slug, number, '/attachments'), { signal }),
  comment: (slug: string, number: number, body: CreateCommentBody) => api.post<{ id: string }>(bug(slug, number, '/comments'), body),
  labels: (slug: string) => api.get<Label[]>(projectPath(slug, '/labels')),
  createLabel: (slug: string, body: CreateLabelBody) => api.post<Label>(projectPath(slug, '/labels'), body),
  addLabel: (slug: string, number: number, labelId: string) => api.post<{ message: string }>(bug(slug, number, '/labels'), { label_id: labelId }),
  removeLabel: (slug: string, number: number, labelId: string) => api.delete<{ message: string }>(bug(slug, number, `/labels/${encodeURIComponent(labelId)}`)),
  permissions: (slug: string) => api.get<EffectivePermissions>(projectPath(slug, '/permissions')),
  members: (slug: string) => api.get<Roster>(projectPath(slug, '/members')),
}
