import type { DomainModule } from '../module'
import { accountDataRoutes } from './account-data.routes'

/**
 * A person's data across domains (export, deletion): above every domain it reads, so identity (auth)
 * never imports projects, reports or comments.
 */
export const accountDataModule: DomainModule = { name: 'account-data', routes: accountDataRoutes }
