import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { bulkDeleteReports, bulkUpdateReports, deleteReport, updateReport } from './report-changes'
import { exportReportsCsv } from './report-export'
import { facetValues } from '../reports/report-facets'
import { listFiltersOf, listReports } from '../reports/reports.list'
import { readReport, reportActivity } from './report-detail'
import { bulkDeleteBody, bulkUpdateBody, createReportBody, exportQuery, listQuery, similarQuery, updateReportBody } from '../reports/reports.schemas'
import { errorTypeCounts, similarTo } from '../reports/reports.search'
import { createReport, newReportFrom } from '../reports/reports.service'
import { reportAdditions } from '../reports/report-additions'

const tags = ['Bug reports']

/** Spec 4.3 core. Static paths (/bulk, /similar, /export) win over `/bugs/:number` in Elysia's router. */
export const reportsRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get(
      '/projects/:slug/bugs',
      async ({ project, query }) => listReports(deps.db, project, { ...(await listFiltersOf(deps.db, project.id, query)), sort: query.sort, spark: query.spark, page: query.page, now: deps.clock.now() }),
      { project: 'bugs.view', query: listQuery, detail: { tags, summary: 'List reports (filters, full-text q, sort, 25 a page)' } },
    )
    .post(
      '/projects/:slug/bugs',
      async ({ project, user, body, set }) => {
        const writeCustomFields = await reportAdditions().checkNewReportValues(deps, project.id, body.custom_fields)
        const report = await deps.db.write(async (tx) => {
          const created = await createReport(deps, tx, project, { ...newReportFrom(body), source: 'user', createdBy: user.id })
          await writeCustomFields(created.id, deps.clock.now())
          return created
        })
        set.status = 201
        return { id: report.id, report_number: report.reportNumber }
      },
      { project: 'bugs.create', body: createReportBody, detail: { tags, summary: 'File a report' } },
    )
    .patch('/projects/:slug/bugs/bulk', ({ project, user, membership, body }) => bulkUpdateReports(deps, project, { userId: user.id, membership }, body), {
      project: 'bugs.edit',
      body: bulkUpdateBody,
      detail: { tags, summary: 'Update up to 100 reports by id or number, or up to 10,000 by the list\'s filter' },
    })
    .delete('/projects/:slug/bugs/bulk', ({ project, user, body }) => bulkDeleteReports(deps, project, user.id, body), {
      project: 'bugs.delete',
      body: bulkDeleteBody,
      detail: { tags, summary: 'Delete up to 100 reports by id or number, or up to 10,000 by the list\'s filter' },
    })
    .get('/projects/:slug/bugs/similar', ({ project, query }) => similarTo(deps.db, project.id, query.title), {
      project: 'bugs.view',
      query: similarQuery,
      detail: { tags, summary: 'Reports with similar titles' },
    })
    .get(
      '/projects/:slug/bugs/export',
      ({ project, query }) =>
        new Response(exportReportsCsv(deps.db, project.id, query), {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="${project.slug.replace(/[^\w.-]/g, '_')}-bugs.csv"`,
            'cache-control': 'no-store',
          },
        }),
      { project: 'bugs.view', query: exportQuery, detail: { tags, summary: 'Export reports as CSV' } },
    )
    .get('/projects/:slug/bugs/facets', ({ project }) => facetValues(deps.db, project.id), {
      project: 'bugs.view',
      detail: { tags, summary: 'Game versions and platforms the project\'s occurrences came from (the list\'s version and platform filter choices)' },
    })
    .get('/projects/:slug/error-types', ({ project }) => errorTypeCounts(deps.db, project.id), {
      project: 'bugs.view',
      detail: { tags, summary: 'Error classes, most common first' },
    })
    .get(
      '/projects/:slug/bugs/:number',
      // A merged report's number leads to the report it was merged into (same path, its number).
      ({ project, params, request }) => readReport(deps, project.id, params.number, (n) => new URL(request.url).pathname.replace(/[^/]+$/, String(n))),
      {
        project: 'bugs.view',
        detail: { tags, summary: 'Read a report with comments and labels (308 to the survivor for a merged report number)' },
      },
    )
    .patch(
      '/projects/:slug/bugs/:number',
      async ({ project, user, membership, params, body }) => {
        await updateReport(deps, project, { userId: user.id, membership }, params.number, body)
        return { message: 'Report updated' }
      },
      { project: 'bugs.edit', body: updateReportBody, detail: { tags, summary: 'Update a report' } },
    )
    .delete(
      '/projects/:slug/bugs/:number',
      async ({ project, user, params }) => {
        await deleteReport(deps, project.id, user.id, params.number)
        return { message: 'Report deleted' }
      },
      { project: 'bugs.delete', detail: { tags, summary: 'Delete a report (soft)' } },
    )
    .get('/projects/:slug/bugs/:number/activity', ({ project, params }) => reportActivity(deps.db, project.id, params.number), {
      project: 'bugs.view',
      detail: { tags, summary: 'Activity of a report, oldest first' },
    })
