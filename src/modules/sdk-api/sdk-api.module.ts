import type { DomainModule } from '../module'
import { sdkRoutes } from './sdk-api.routes'

/**
 * The SDK's HTTP surface: its routes and the submit adapter that hands a report to ingest. It sits above
 * ingest, while the sdk domain (sessions, replays, telemetry) stays below the analytics and ingest that read it.
 */
export const sdkApiModule: DomainModule = { name: 'sdk-api', routes: sdkRoutes }
