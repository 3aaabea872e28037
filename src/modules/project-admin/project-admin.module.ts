import type { DomainModule } from '../module'
import { projectAdminRoutes } from './project-admin.routes'

/**
 * The dashboard's project use cases that read higher domains (bug counts, setup checklist, activity,
 * deletion with the project's files): above them, so the projects domain (table, repository, slugs)
 * stays below every domain whose rows belong to a project.
 */
export const projectAdminModule: DomainModule = { name: 'project-admin', routes: projectAdminRoutes }
