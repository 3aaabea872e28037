import type { DomainModule } from '../module'
import { occurrencesRoutes } from './occurrences.routes'

/** The one ingest path (ingest.service.ts) has no route of its own: clients reach it through their adapters. These are the team's routes over its occurrences. */
export const ingestModule: DomainModule = {
  name: 'ingest',
  routes: occurrencesRoutes,
}
