// The dashboard as an HTML import: bundled ahead of time into the compiled binary, a plain path from
// source. Imported only by src/cli/serve.ts: vitest cannot import HTML (tests use dashboardFromSource()).
import dashboard from '../app/index.html'
import type { DashboardSource } from './dashboard'

export const dashboardBundle: DashboardSource = dashboard
