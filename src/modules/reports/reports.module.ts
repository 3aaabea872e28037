import type { DomainModule } from '../module'
import { reportsJobs } from './reports.fts-merge'
import { reportsRoutes } from './reports.routes'

export const reportsModule: DomainModule = { name: 'reports', routes: reportsRoutes, jobs: reportsJobs }
