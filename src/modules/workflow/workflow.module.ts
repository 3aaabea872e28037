import type { DomainModule } from '../module'
import { addToReports } from '../reports/report-additions'
import { checkNewReportValues } from './custom-fields.service'
import { rollupCursorsPgSql } from './rollup-cursors.pg'
import { selectFieldFilter } from './custom-fields.filter'
import { slaOfReport, slaOfReports, slaStateSql, slaSubscriber } from './sla.service'
import { workflowJobs } from './workflow.jobs'
import { workflowRoutes } from './workflow.routes'
import { workflowSettingsRoutes } from './workflow-settings.routes'

// Workflow's part of reports (custom fields, SLA clocks): reports reads it from here, never imports it.
addToReports({ checkNewReportValues, selectFieldFilter, slaOfReport, slaOfReports, slaStateSql })

export const workflowModule: DomainModule = {
  name: 'workflow',
  routes: (deps) => workflowRoutes(deps).use(workflowSettingsRoutes(deps)),
  jobs: workflowJobs,
  subscribe: (deps) => deps.events.subscribe(slaSubscriber(deps)),
  database: { postgres: { sql: rollupCursorsPgSql } },
}
