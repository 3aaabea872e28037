import type { DomainModule } from '../module'
import { addToReports } from '../reports/report-additions'
import { labelsRoutes } from './labels.routes'
import { labelsByReport } from './labels.service'

// Labels' part of reports (a list page's labels): reports reads it from here, never imports it.
addToReports({ labelsOfReports: labelsByReport })

export const labelsModule: DomainModule = { name: 'labels', routes: labelsRoutes }
