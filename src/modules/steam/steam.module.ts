import type { DomainModule } from '../module'
import { steamJobs } from './steam.jobs'
import { steamRoutes } from './steam.routes'

export const steamModule: DomainModule = { name: 'steam', routes: steamRoutes, jobs: steamJobs }
