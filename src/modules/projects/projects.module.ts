import type { DomainModule } from '../module'
import { projectsRoutes } from './projects.routes'

export const projectsModule: DomainModule = { name: 'projects', routes: projectsRoutes }
