import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import type { DomainModule } from '../module'
import { occurrencesRoutes } from './occurrences.routes'
import { reportsRoutes } from './report-admin.routes'

/**
 * The team's report routes: list, detail, changes, export, merge and split. They read and change what
 * several domains keep on a report (labels, comments, custom fields, occurrences, files), so they sit
 * above all of them and the reports domain below stays the report itself (table, repository, search).
 */
export const reportAdminModule: DomainModule = {
  name: 'report-admin',
  routes: (deps: AppDeps) => new Elysia().use(reportsRoutes(deps)).use(occurrencesRoutes(deps)),
}
