import type { DomainModule } from '../module'
import { authJobs } from './auth.jobs'
import { authRoutes } from './auth.routes'

export const authModule: DomainModule = { name: 'auth', routes: authRoutes, jobs: authJobs }
