import type { DomainModule } from '../module'
import { sentryRoutes } from './sentry.routes'

/** Sentry's SDKs and Unreal's crash reporter, reporting to Glitchbox unmodified (README "Sentry SDKs"). */
export const sentryModule: DomainModule = {
  name: 'sentry',
  rootRoutes: sentryRoutes,
}
