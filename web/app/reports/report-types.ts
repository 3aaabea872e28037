/** Answers of the report routes, inferred from the server's response docs (type-only: nothing of the server is bundled). */
import type * as z from 'zod'
import type * as attachmentDocs from '../../../src/docs/responses/attachments'
import type * as labelDocs from '../../../src/docs/responses/labels'
import type * as reportDocs from '../../../src/docs/responses/reports'
import type * as comments from '../../../src/modules/comments/comments.schemas'
import type * as labels from '../../../src/modules/labels/labels.schemas'
import type * as reports from '../../../src/modules/reports/reports.schemas'

export type ReportListPage = z.infer<typeof reportDocs.ReportListResponse>
export type ReportListItem = z.infer<typeof reportDocs.ReportListItem>
export type Report = z.infer<typeof reportDocs.Report>
export type ReportDetail = z.infer<typeof reportDocs.ReportDetailResponse>
export type ReportComment = z.infer<typeof reportDocs.ReportComment>
export type ReportLabel = z.infer<typeof reportDocs.ReportLabel>
export type ActivityEntry = z.infer<typeof reportDocs.ReportActivityResponse>[number]
export type Occurrence = z.infer<typeof reportDocs.Occurrence>
export type OccurrencePage = z.infer<typeof reportDocs.OccurrenceListResponse>
export type ScreenshotList = z.infer<typeof reportDocs.ScreenshotListResponse>
export type OccurrenceDistribution = z.infer<typeof reportDocs.OccurrenceDistribution>
export type ReportTrend = z.infer<typeof reportDocs.ReportTrend>
export type ReportTagFacet = z.infer<typeof reportDocs.ReportTagFacet>
export type Merged = z.infer<typeof reportDocs.MergeResponse>
export type SimilarReport = z.infer<typeof reportDocs.SimilarReportsResponse>[number]
export type ErrorTypeCount = z.infer<typeof reportDocs.ErrorTypesResponse>[number]
export type FacetValues = z.infer<typeof reportDocs.FacetValuesResponse>
export type BulkUpdated = z.infer<typeof reportDocs.BulkUpdateResponse>
export type BulkDeleted = z.infer<typeof reportDocs.BulkDeleteResponse>
export type Created = z.infer<typeof reportDocs.ReportCreatedResponse>
export type Attachment = z.infer<typeof attachmentDocs.Attachment>
export type Label = z.infer<typeof labelDocs.Label>

export type UpdateReportBody = z.input<typeof reports.updateReportBody>
export type BulkUpdateBody = z.input<typeof reports.bulkUpdateBody>
export type BulkDeleteBody = z.input<typeof reports.bulkDeleteBody>
export type ListFilter = z.input<typeof reports.listFilterQuery>
export type CreateCommentBody = z.input<typeof comments.createCommentBody>
export type CreateLabelBody = z.input<typeof labels.createLabelBody>
