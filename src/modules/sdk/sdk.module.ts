import type { DomainModule } from '../module'
import { sdkRoutes } from './sdk.routes'

export const sdkModule: DomainModule = {
  name: 'sdk',
  routes: sdkRoutes,
}
