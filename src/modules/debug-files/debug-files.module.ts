import type { DomainModule } from '../module'
import { registerJsEventMapper } from '../sentry/js-source-maps'
import { registerMinidumpSymbolicator } from '../sentry/minidump-symbols'
import { symbolicateDump } from './minidump-symbolicate'
import { debugFilesJobs } from './debug-files.jobs'
import { debugFilesRoutes } from './debug-files.routes'
import { sentryCliRoutes } from './sentry-cli.routes'
import { mapEventWithProjectMaps } from './sourcemap-ingest'

/** Symbols and source maps uploaded with sentry-cli, and the project's "Debug files" screen (README "Symbols and source maps"). */
export const debugFilesModule: DomainModule = {
  name: 'debug-files',
  routes: debugFilesRoutes,
  rootRoutes: sentryCliRoutes,
  jobs: debugFilesJobs,
  subscribe: () => {
    registerMinidumpSymbolicator(symbolicateDump)
    registerJsEventMapper(mapEventWithProjectMaps)
  },
}
