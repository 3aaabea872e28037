import { Elysia } from 'elysia'
import type { DomainModule } from '../module'
import { occurrencesRoutes } from './occurrences.routes'
import { sdkRoutes } from './sdk.routes'

export const sdkModule: DomainModule = {
  name: 'sdk',
  routes: (deps) => new Elysia().use(sdkRoutes(deps)).use(occurrencesRoutes(deps)),
}
